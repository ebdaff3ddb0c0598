import Commands
import Foundation

/// The server side of group commit: a PL/pgSQL function, made for the journal's table when it
/// is opened, that applies a batch of writes (typed parallel arrays, ``PostgresJournalBatchParameter``)
/// in order, as the statement's one
/// transaction, and returns each write's answer. A batch is then one round trip, one
/// transaction and one WAL flush, however many writes it holds.
///
/// Each write is a few statements, each seeing the ones before (READ COMMITTED): a caller's
/// conflict or lost lease is an answer row (`lost`, `found`, …) and changes nothing; claims take
/// rows with `FOR UPDATE SKIP LOCKED`; a claim under a concurrency limit takes the queue's
/// advisory lock before it counts. Times are `p_now`, or the server's clock once per batch.
///
/// Rows: the write's position (from 1), an outcome, the time used, two texts and a number whose
/// meaning depends on the outcome, then a record (or NULLs).
enum PostgresJournalBatchFunction {
    /// The function's name for `table`: versioned, so that a later layout adds its own (v2 added
    /// `changes`, several settlements in one all-or-nothing block, and claims' previous owners;
    /// v3 fences every write of an attempt by its token, and renews attempts, not keys; v4 takes
    /// the writes as typed arrays, not JSON; v5 enqueues at a priority, and claims the highest
    /// priority first; v6 claims nothing from a paused queue, enqueues in a partition, and claims
    /// under a limit per partition; v7 begins a new record on a queue, `p_queues`, when the
    /// begin names one; v8 answers each claimed record with its trace context, `o_aux2`, so that a
    /// claim is one round trip; v9 claims under the rate limits of `<table>_rate_limits`, debiting
    /// their buckets in `<table>_rate_buckets` on the server's clock, or `p_now`; v10 keeps how long a
    /// record claimed from its queue waited, `pickup_ms`; v11 settles the settlements next to each
    /// other in a batch in one statement, ``settleRun(_:)``, answering each as v10, and a claim that
    /// waited for its queue's lock looks again whether the queue was paused meanwhile; v12 inserts a
    /// step that a `changes` write adds and settles at once settled, one row version, not two, and
    /// answers a begin, an append, an enqueue and a claim in the statement that writes them; v13
    /// keeps the begin's token, `p_tokens`, in `begin_token` (negated when it took an existing
    /// record), and answers a begin run again with its token as its first run answered, so
    /// that a begin may commit in its statement's own transaction). The earlier versions stay in the
    /// database, as processes of an earlier version may still call them: a v4 process enqueues
    /// at the column's default, 0, and claims oldest first; a v5 process claims from a paused
    /// queue; a v8 process claims past the rate limits; a v9 process keeps no pickups.
    static func name(_ table: String) -> String { "\(table)_batch_v13" }

    static let recordColumns = PostgresJournalColumn.list("r.")

    /// The record's result columns: `o_` and each column's name, with its type.
    static let resultColumns = PostgresJournalColumn.allCases.map { "o_\($0.name) \($0.type)" }.joined(
        separator: ", ")

    /// A write's answer row: its position, `outcome`, the time used, two texts, a number, and
    /// the record `r` (SQL expressions).
    static func answer(
        _ outcome: PostgresJournalOutcome, _ aux: String, _ aux2: String, _ next: String
    ) -> String {
        "RETURN QUERY SELECT v_i, \(outcome.literal)::text, v_now, \(aux)::text, \(aux2)::text, \(next)::bigint, "
            + "\(recordColumns);"
    }

    /// Answers each row the data-modifying `statement` returns (`RETURNING` is added: the record
    /// it wrote, in `t`) as `outcome`, in that one statement (v12), where a statement that writes
    /// into `r` then one that answers `r` was two: each statement of the function costs the
    /// server its start. `FOUND` then tells whether it wrote one.
    static func answering(_ outcome: PostgresJournalOutcome, _ statement: String) -> String {
        """
        RETURN QUERY WITH w AS (
            \(statement)
            RETURNING t.*)
        SELECT v_i, \(outcome.literal)::text, v_now, NULL::text, NULL::text, NULL::bigint, \(writtenColumns) FROM w;
        """
    }

    /// The record's columns in ``answering(_:_:)``'s statement.
    static let writtenColumns = PostgresJournalColumn.list("w.")

    /// A pending root, in `t`.
    static let pendingRoot = "t.status = 'pending' AND t.parent_key IS NULL"

    /// Checks that the writer (`v_owner`, at the attempt `v_token` when it names one) holds the
    /// root `key` (an SQL expression), locking it against a concurrent claim; runs `otherwise`
    /// when it does not, with `v_root_owner` the root's owner.
    static func holds(_ t: String, _ key: String, otherwise: String) -> String {
        """
        SELECT t.owner, t.status, t.parent_key, t.attempts INTO v_root_owner, v_root_status, v_root_parent,
            v_root_attempts
        FROM \(t) AS t WHERE t.key = \(key) FOR SHARE;
        IF NOT FOUND OR v_root_owner IS DISTINCT FROM v_owner OR v_root_status <> 'pending'
            OR v_root_parent IS NOT NULL OR (v_token IS NOT NULL AND v_root_attempts IS DISTINCT FROM v_token) THEN
            \(otherwise)
        END IF;
        """
    }

    /// The `UPDATE` that settles a record of `t` as `status`, with the `output` and `reason`
    /// (SQL expressions: the write's, one of its changes', or a run of settlements' (v11)); its
    /// `FROM` or `WHERE` follows.
    static func settling(_ t: String, status: String = "v_status", output: String, reason: String) -> String {
        """
        UPDATE \(t) AS t SET status = \(status),
            output = COALESCE(\(output), t.output),
            failure_reason = CASE WHEN \(status) = 'done' THEN NULL
                ELSE COALESCE(\(reason), t.failure_reason) END,
            lease_expires_at = CASE WHEN t.parent_key IS NULL THEN NULL ELSE t.lease_expires_at END,
            updated_at = v_now
        """
    }

    static func create(_ table: String) -> String {
        let t = "\"\(table)\""
        let lost = answer(.lost, "v_root_owner", "v_parent", "NULL") + "\n    CONTINUE;"
        return """
            CREATE OR REPLACE FUNCTION "\(name(table))"(\(PostgresJournalBatchParameter.declarations))
            RETURNS TABLE (
                o_index bigint, o_outcome text, o_now bigint, o_aux text, o_aux2 text, o_next bigint,
                \(resultColumns))
            LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                v_now bigint := COALESCE(p_now, (extract(epoch FROM clock_timestamp()) * 1000)::bigint);
                v_writes bigint := COALESCE(cardinality(p_ops), 0);
                v_holds bigint := COALESCE(cardinality(p_hold_writes), 0);
                v_changes bigint := COALESCE(cardinality(p_change_writes), 0);
                v_hold bigint := 1; v_change bigint := 1; v_first bigint;
                v_i bigint := 0; v_what smallint; v_out text; v_kind text;
                v_key text; v_parent text; v_owner text; v_status text; v_queue text; v_dead text;
                v_payload bytea; v_ms bigint; v_room bigint; v_conc bigint; v_count bigint;
                v_root_owner text; v_root_status text; v_root_parent text; v_root_attempts bigint; v_token bigint;
                v_aux text; v_aux2 text; v_rec record;
                v_plimit bigint; v_taken bigint; v_full text[]; v_running boolean;
                v_rq_n bigint; v_rq_i bigint; v_rq_cap bigint; v_rq_credit bigint;
                v_rp_n bigint; v_rp_i bigint; v_rp_cap bigint; v_rp_credit bigint;
                v_b_credit bigint; v_b_at bigint; v_wait bigint; v_held boolean := false;
                v_run bigint := 0; v_done bigint[] := '{}'; v_d bigint := 1;
                r \(t)%ROWTYPE;
            BEGIN
                \(lengthsCheck)
                WHILE v_i < v_writes LOOP
                    v_i := v_i + 1;
                    v_what := p_ops[v_i];
                    v_key := p_keys[v_i];
                    v_kind := p_kinds[v_i];
                    v_parent := p_parents[v_i];
                    v_owner := p_owners[v_i];
                    v_ms := p_ms[v_i];
                    v_token := p_tokens[v_i];
                    v_payload := COALESCE(p_payloads[v_i], ''::bytea);
                    r := NULL;
                    IF \(PostgresJournalOperationCode.begin.test) THEN
                        \(answering(.started, """
                            INSERT INTO \(t) AS t (key, kind, payload, parent_key, status, owner, lease_expires_at, queue,
                                attempts, created_at, updated_at, begin_token)
                            VALUES (v_key, v_kind, v_payload, v_parent, 'pending', v_owner, v_now + v_ms, p_queues[v_i], 1,
                                v_now, v_now, v_token)
                            ON CONFLICT (key) DO NOTHING
                            """))
                        IF NOT FOUND THEN
                            SELECT * INTO r FROM \(t) AS t WHERE t.key = v_key;
                            v_out := \(PostgresJournalOutcome.found.literal);
                            IF v_token IS NOT NULL AND r.begin_token IN (v_token, -v_token) AND r.owner = v_owner
                                AND r.status = 'pending' AND r.parent_key IS NULL THEN
                                -- This begin, run again after its answer was lost: as it answered then (v13).
                                v_out := CASE WHEN r.begin_token = v_token THEN \(PostgresJournalOutcome.started.literal)
                                    ELSE \(PostgresJournalOutcome.resumed.literal) END;
                            ELSIF r.status = 'pending' AND r.parent_key IS NULL AND v_parent IS NULL
                                AND r.lease_expires_at <= v_now THEN
                                UPDATE \(t) AS t SET owner = v_owner, lease_expires_at = v_now + v_ms,
                                    attempts = t.attempts + 1, updated_at = v_now, begin_token = -v_token
                                WHERE t.key = v_key AND \(pendingRoot) AND t.kind = v_kind AND t.payload = v_payload
                                    AND t.lease_expires_at <= v_now
                                RETURNING t.* INTO r;
                                IF FOUND THEN
                                    v_out := \(PostgresJournalOutcome.resumed.literal);
                                ELSE
                                    SELECT * INTO r FROM \(t) AS t WHERE t.key = v_key;
                                END IF;
                            END IF;
                            RETURN QUERY SELECT v_i, v_out, v_now, NULL::text, NULL::text, NULL::bigint, \(recordColumns);
                        END IF;
                    ELSIF \(PostgresJournalOperationCode.append.test) OR \(PostgresJournalOperationCode.enqueue.test) THEN
                        IF \(PostgresJournalOperationCode.append.test) THEN
                            \(holds(t, "v_parent", otherwise: lost))
                            \(answering(.inserted, """
                                INSERT INTO \(t) AS t (key, kind, payload, parent_key, status, attempts, created_at, updated_at)
                                VALUES (v_key, v_kind, v_payload, v_parent, 'pending', 0, v_now, v_now)
                                ON CONFLICT (key) DO NOTHING
                                """))
                        ELSE
                            \(answering(.inserted, """
                                INSERT INTO \(t) AS t (key, kind, payload, parent_key, status, lease_expires_at, queue, attempts,
                                    created_at, updated_at, priority, partition_key)
                                VALUES (v_key, v_kind, v_payload, v_parent, 'pending', v_now + v_ms, p_queues[v_i], 0,
                                    v_now, v_now, COALESCE(p_priorities[v_i], \(CommandQueue.defaultPriority)), p_partitions[v_i])
                                ON CONFLICT (key) DO NOTHING
                                """))
                        END IF;
                        IF NOT FOUND THEN
                            SELECT * INTO r FROM \(t) AS t WHERE t.key = v_key;
                            \(answer(.found, "NULL", "NULL", "NULL"))
                        END IF;
                    ELSIF \(PostgresJournalOperationCode.settle.test) THEN
                        \(settleRun(t))
                        v_status := p_statuses[v_i];
                        SELECT t.parent_key, t.status INTO v_parent, v_root_status FROM \(t) AS t WHERE t.key = v_key;
                        IF NOT FOUND THEN
                            \(answer(.unknown, "NULL", "NULL", "NULL"))
                            CONTINUE;
                        END IF;
                        IF v_root_status = v_status AND v_status <> 'pending' THEN
                            \(answer(.same, "NULL", "NULL", "NULL"))
                            CONTINUE;
                        END IF;
                        IF v_parent IS NOT NULL THEN
                            \(holds(t, "v_parent", otherwise: lost))
                        END IF;
                        \(settling(t, output: "p_outputs[v_i]", reason: "p_reasons[v_i]"))
                        WHERE t.key = v_key AND NOT (t.status = v_status AND t.status <> 'pending')
                            AND (v_parent IS NOT NULL OR (t.owner = v_owner AND t.status = 'pending'
                                AND (v_token IS NULL OR t.attempts = v_token)));
                        IF FOUND THEN
                            \(answer(.settled, "NULL", "NULL", "NULL"))
                        ELSE
                            SELECT t.owner, t.status INTO v_root_owner, v_root_status FROM \(t) AS t WHERE t.key = v_key;
                            IF v_root_status = v_status AND v_status <> 'pending' THEN
                                \(answer(.same, "NULL", "NULL", "NULL"))
                            ELSE
                                \(answer(.lost, "v_root_owner", "v_key", "NULL"))
                            END IF;
                        END IF;
                    ELSIF \(PostgresJournalOperationCode.changes.test) THEN
                        \(changes(t))
                    ELSIF \(PostgresJournalOperationCode.renew.test) THEN
                        v_first := v_hold;
                        WHILE v_hold <= v_holds AND p_hold_writes[v_hold] = v_i LOOP
                            v_hold := v_hold + 1;
                        END LOOP;
                        FOR v_key IN UPDATE \(t) AS t SET lease_expires_at = v_now + v_ms
                            FROM unnest(p_hold_keys[v_first:v_hold - 1], p_hold_tokens[v_first:v_hold - 1]) AS h(key, token)
                            WHERE t.key = h.key AND t.attempts = h.token AND t.owner = v_owner
                                AND \(pendingRoot)
                            RETURNING t.key LOOP
                            \(answer(.renewed, "v_key", "NULL", "NULL"))
                        END LOOP;
                    ELSIF \(PostgresJournalOperationCode.release.test) THEN
                        UPDATE \(t) AS t SET owner = NULL, lease_expires_at = v_now + v_ms, updated_at = v_now
                        WHERE t.key = v_key AND t.owner = v_owner AND (v_token IS NULL OR t.attempts = v_token)
                            AND \(pendingRoot);
                        \(answer(.released, "NULL", "NULL", "NULL"))
                    ELSIF \(PostgresJournalOperationCode.claim.test) THEN
                        v_queue := p_queues[v_i];
                        v_dead := p_deads[v_i];
                        v_room := GREATEST(0, p_limits[v_i]);
                        v_conc := p_concurrencies[v_i];
                        v_plimit := p_partition_limits[v_i];
                        IF v_queue IS NULL THEN
                            \(claimBranch(t, table, "t.queue IS NULL"))
                        ELSE
                            \(claimBranch(t, table, "t.queue = v_queue"))
                        END IF;
                    ELSIF \(PostgresJournalOperationCode.prune.test) THEN
                        WITH roots AS (
                            SELECT t.key FROM \(t) AS t
                            WHERE t.parent_key IS NULL AND t.status <> 'pending' AND t.updated_at < v_ms
                        ), children AS (
                            DELETE FROM \(t) AS t WHERE t.parent_key IN (SELECT roots.key FROM roots) RETURNING 1
                        ), gone AS (
                            DELETE FROM \(t) AS t WHERE t.key IN (SELECT roots.key FROM roots) RETURNING 1
                        )
                        SELECT (SELECT count(*) FROM children) + (SELECT count(*) FROM gone) INTO v_count;
                        \(answer(.pruned, "NULL", "NULL", "v_count"))
                    ELSE
                        RAISE EXCEPTION 'unknown journal write %', v_what;
                    END IF;
                END LOOP;
                IF v_hold <= v_holds OR v_change <= v_changes THEN
                    RAISE EXCEPTION USING ERRCODE = '22023',
                        MESSAGE = 'the batch''s attempts or changes name no renewal or settlement of their position';
                END IF;
            END
            $fn$
            """
    }

    /// The call: the parameters in ``PostgresJournalBatchParameter``'s order.
    static func call(_ table: String) -> String {
        "SELECT * FROM \"\(name(table))\"(\(PostgresJournalBatchParameter.placeholders))"
    }

    /// Raises unless the arrays of each group (``PostgresJournalBatchParameter/Group``) have
    /// one length: a malformed call changes nothing.
    static let lengthsCheck: String = {
        let mismatches = PostgresJournalBatchParameter.Group.allCases.flatMap { group in
            let members = PostgresJournalBatchParameter.allCases.filter { $0.group == group }
            guard let first = members.first else { return [String]() }
            return members.dropFirst().map {
                "COALESCE(cardinality(\($0.name)), 0) <> COALESCE(cardinality(\(first.name)), 0)"
            }
        }
        return """
            IF \(mismatches.joined(separator: "\n    OR ")) THEN
                RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'the batch''s arrays differ in length';
            END IF;
            """
    }()
}
