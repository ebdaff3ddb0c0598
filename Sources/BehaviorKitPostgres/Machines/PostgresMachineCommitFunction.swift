/// The server side of a ``PostgresMachineStore``'s commits: a PL/pgSQL function, made with the
/// tables, that applies a batch of commits (typed parallel arrays,
/// ``PostgresMachineCommitParameter``) in order, in the call's one transaction, and returns one
/// row per commit. A batch is one round trip, one transaction and one WAL flush, however many
/// commits it holds.
///
/// Each commit, under READ COMMITTED (each statement sees what committed before it):
/// - locks its instance (`SELECT … FOR UPDATE`; for version 0, `INSERT … ON CONFLICT DO
///   NOTHING`, which waits for a concurrent insert of the key and then does nothing), so that
///   commits of one key run one at a time across every connection, and a second commit computed
///   from one version finds the version moved on;
/// - answers `duplicate` with the recorded step when a step of the instance has the commit's
///   event id, `conflict` with the current version when the instance is not at the expected
///   one; and changes nothing then;
/// - otherwise writes the instance, replaces its state rows, inserts the step, deletes the
///   disarmed timers and stopped effects, and upserts the armed timers and started effects (an
///   effect started again under an id it still has keeps its attempts, never fewer, so that the
///   token of a worker that held it before stays stale).
///
/// Rows: the commit's position (from 1), `committed`, `conflict` or `duplicate`, the instance's
/// version (NULL when it does not exist), then the recorded step for `duplicate` (or NULLs).
enum PostgresMachineCommitFunction {
    /// The function's name for `prefix`: versioned, so that a later layout adds its own (v2 takes
    /// the commits as typed arrays, not JSON). An earlier version stays in a database that has
    /// it, as processes of an earlier release may still call it.
    static func name(_ prefix: String) -> String { "\(prefix)_commit_v2" }

    static func answer(_ outcome: String, _ version: String, step: String? = nil) -> String {
        let columns =
            step.map { "\($0).sequence, \($0).event_id, \($0).at, \($0).body" }
            ?? "NULL::bigint, NULL::text, NULL::bigint, NULL::bytea"
        return "RETURN QUERY SELECT v_i::bigint, '\(outcome)'::text, \(version)::bigint, \(columns);"
    }

    static func create(_ prefix: String) -> String {
        let instance = "\"\(prefix)_instance\""
        let state = "\"\(prefix)_state\""
        let step = "\"\(prefix)_step\""
        let timer = "\"\(prefix)_timer\""
        let effect = "\"\(prefix)_effect\""
        let this = "machine = v_machine AND key = v_key"
        return """
            CREATE OR REPLACE FUNCTION "\(name(prefix))"(\(PostgresMachineCommitParameter.declarations))
            RETURNS TABLE (o_index bigint, o_outcome text, o_version bigint, o_sequence bigint, o_event_id text,
                o_at bigint, o_body bytea)
            LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                v_machine text; v_key text; v_expected bigint; v_version bigint;
                v_event text; v_at bigint; v_current bigint; v_new boolean; v_step record;
            BEGIN
                FOR v_i IN 1..COALESCE(array_length(p_keys, 1), 0) LOOP
                    v_machine := p_machines[v_i];
                    v_key := p_keys[v_i];
                    v_expected := p_expected[v_i];
                    v_version := p_versions[v_i];
                    v_event := p_events[v_i];
                    v_at := p_ats[v_i];
                    v_current := NULL;
                    v_new := false;
                    IF v_expected = 0 THEN
                        INSERT INTO \(instance) (machine, key, version, snapshot, created_at, updated_at)
                        VALUES (v_machine, v_key, v_version, p_snapshots[v_i], v_at, v_at)
                        ON CONFLICT (machine, key) DO NOTHING;
                        v_new := FOUND;
                        IF NOT v_new THEN
                            SELECT version INTO v_current FROM \(instance) WHERE \(this);
                        END IF;
                    ELSE
                        SELECT version INTO v_current FROM \(instance) WHERE \(this) FOR UPDATE;
                    END IF;
                    IF NOT v_new THEN
                        IF v_event IS NOT NULL AND v_current IS NOT NULL THEN
                            SELECT sequence, event_id, at, body INTO v_step FROM \(step)
                            WHERE \(this) AND event_id = v_event;
                            IF FOUND THEN
                                \(answer("duplicate", "v_current", step: "v_step"))
                                CONTINUE;
                            END IF;
                        END IF;
                        IF v_current IS NULL OR v_current <> v_expected OR v_expected = 0 THEN
                            \(answer("conflict", "v_current"))
                            CONTINUE;
                        END IF;
                        UPDATE \(instance) SET version = v_version, snapshot = p_snapshots[v_i], updated_at = v_at
                        WHERE \(this);
                        DELETE FROM \(state) WHERE \(this);
                    END IF;
                    INSERT INTO \(state) (machine, key, position, state, entered_at)
                    SELECT v_machine, v_key, u.o, u.s, u.t
                    FROM unnest(p_state_commits, p_state_names, p_state_ats) WITH ORDINALITY AS u(c, s, t, o)
                    WHERE u.c = v_i;
                    INSERT INTO \(step) (machine, key, sequence, event_id, at, body)
                    VALUES (v_machine, v_key, v_version, v_event, v_at, p_bodies[v_i]);
                    IF v_i = ANY(p_disarm_commits) THEN
                        DELETE FROM \(timer) WHERE \(this) AND id IN (
                            SELECT u.i FROM unnest(p_disarm_commits, p_disarm_ids) AS u(c, i) WHERE u.c = v_i);
                    END IF;
                    IF v_i = ANY(p_arm_commits) THEN
                        INSERT INTO \(timer) (machine, key, id, due_at, body)
                        SELECT v_machine, v_key, u.i, u.d, u.b
                        FROM unnest(p_arm_commits, p_arm_ids, p_arm_dues, p_arm_bodies) AS u(c, i, d, b)
                        WHERE u.c = v_i
                        ON CONFLICT (machine, key, id) DO UPDATE SET due_at = EXCLUDED.due_at, body = EXCLUDED.body;
                    END IF;
                    IF v_i = ANY(p_stop_commits) THEN
                        DELETE FROM \(effect) WHERE \(this) AND id IN (
                            SELECT u.i FROM unnest(p_stop_commits, p_stop_ids) AS u(c, i) WHERE u.c = v_i);
                    END IF;
                    IF v_i = ANY(p_start_commits) THEN
                        INSERT INTO \(effect) (machine, key, id, body, owner, lease_expires_at, attempts)
                        SELECT v_machine, v_key, u.i, u.b, u.o, u.l, u.n
                        FROM unnest(p_start_commits, p_start_ids, p_start_bodies, p_start_owners, p_start_leases,
                            p_start_attempts) AS u(c, i, b, o, l, n)
                        WHERE u.c = v_i
                        ON CONFLICT (machine, key, id) DO UPDATE SET body = EXCLUDED.body, owner = EXCLUDED.owner,
                            lease_expires_at = EXCLUDED.lease_expires_at,
                            attempts = GREATEST(\(effect).attempts, EXCLUDED.attempts);
                    END IF;
                    \(answer("committed", "v_version"))
                END LOOP;
            END
            $fn$
            """
    }

    /// The call, one placeholder per parameter.
    static func call(_ prefix: String) -> String {
        "SELECT * FROM \"\(name(prefix))\"(\(PostgresMachineCommitParameter.placeholders))"
    }
}
