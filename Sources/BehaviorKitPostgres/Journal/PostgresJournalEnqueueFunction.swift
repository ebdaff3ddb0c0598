import Commands
import Logging
import PostgresNIO

/// The journal's enqueue for code in any language: a PL/pgSQL function
/// `<table>_enqueue(key text, kind text, payload json, queue text, delay interval DEFAULT '0')`,
/// and beside it the same with a priority, `<table>_enqueue(key, kind, payload, queue, delay,
/// priority bigint)` (all six given: with a default on both, a call of four or five arguments
/// could not choose), made with the table, that writes one record on a queue inside the
/// caller's transaction and returns it (a row of the table), as graphile-worker's `add_job` does:
///
/// ```sql
/// BEGIN;
/// INSERT INTO orders (id, cents) VALUES (42, 990);
/// SELECT sequence FROM behaviorkit_command_journal_enqueue(
///     'order-42/charge', 'bank.charge', '{"cents":990,"order":42}', 'payments');
/// SELECT sequence FROM behaviorkit_command_journal_enqueue(
///     'order-42/receipt', 'mail.receipt', '{"order":42}', 'mail', interval '0', 10);
/// COMMIT;
/// ```
///
/// It calls the table's batch function (``PostgresJournalBatchFunction``) with that one enqueue,
/// so that a record enqueued from SQL is written as the journal writes every other. The key
/// already there answers its record; with another kind or payload (or as a step) it raises
/// SQLSTATE 23505. A NULL argument raises 22004. The payload's bytes are the JSON's text as
/// given (`json` keeps it as written): enqueued again from Swift, the same key conflicts unless
/// the bytes are the same (`JSONEncoder` with sorted keys and no spaces writes them so).
enum PostgresJournalEnqueueFunction {
    /// The function's name for `table`. It calls the current batch function; the opening of a
    /// journal whose batch function has a new version replaces it.
    static func name(_ table: String) -> String { "\(table)_enqueue" }

    /// Its argument types, as `to_regprocedure` reads them: without, or with, a priority.
    static func signature(withPriority: Bool) -> String {
        withPriority ? "text, text, json, text, interval, bigint" : "text, text, json, text, interval"
    }

    /// The batch function's arguments for one enqueue of `v_key`, `v_kind`, `v_payload`,
    /// `v_ms` and `v_queue`: one element in every array of the writes, none in the others.
    static let batchArguments: String = PostgresJournalBatchParameter.allCases.map { parameter in
        let value: String =
            switch parameter {
            case .now: "NULL"
            case .ops: "ARRAY[\(PostgresJournalOperationCode.enqueue.rawValue)]"
            case .keys: "ARRAY[v_key]"
            case .kinds: "ARRAY[v_kind]"
            case .payloads: "ARRAY[v_payload]"
            case .ms: "ARRAY[v_ms]"
            case .queues: "ARRAY[v_queue]"
            case .priorities: "ARRAY[v_priority]"
            case .parents, .owners, .tokens, .statuses, .outputs, .reasons, .limits, .concurrencies, .deads,
                .partitions, .partitionLimits:
                "ARRAY[NULL]"
            case .holdWrites, .holdKeys, .holdTokens, .changeWrites, .changeKeys, .changeStatuses, .changeOutputs,
                .changeReasons, .changeKinds, .changePayloads, .changeParents:
                "'{}'"
            }
        return "\(value)::\(parameter.type)"
    }.joined(separator: ", ")

    static func create(_ table: String, withPriority: Bool) -> String {
        let t = "\"\(table)\""
        let parameters =
            withPriority
            ? "key text, kind text, payload json, queue text, delay interval, priority bigint"
            : "key text, kind text, payload json, queue text, delay interval DEFAULT interval '0'"
        return """
            CREATE OR REPLACE FUNCTION "\(name(table))"(\(parameters))
            RETURNS \(t)
            LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                v_key ALIAS FOR $1;
                v_kind ALIAS FOR $2;
                v_json ALIAS FOR $3;
                v_queue ALIAS FOR $4;
                v_delay ALIAS FOR $5;
                v_priority bigint := \(withPriority ? "$6" : "\(CommandQueue.defaultPriority)");
                v_payload bytea;
                v_ms bigint;
                v_outcome text;
                r \(t)%ROWTYPE;
            BEGIN
                IF v_key IS NULL OR v_kind IS NULL OR v_json IS NULL OR v_queue IS NULL OR v_delay IS NULL
                    OR v_priority IS NULL THEN
                    RAISE EXCEPTION USING ERRCODE = '22004',
                        MESSAGE = '\(name(table)): key, kind, payload, queue, delay and priority must not be NULL';
                END IF;
                v_payload := convert_to(v_json::text, 'UTF8');
                v_ms := LEAST(GREATEST(round(extract(epoch FROM v_delay) * 1000), -4611686018427387904),
                    4611686018427387904)::bigint;
                SELECT b.o_outcome INTO v_outcome
                FROM "\(PostgresJournalBatchFunction.name(table))"(\(batchArguments)) AS b;
                SELECT * INTO r FROM \(t) AS t WHERE t.key = v_key;
                IF NOT FOUND THEN
                    RAISE EXCEPTION USING ERRCODE = 'XX000', MESSAGE = format('%s: no record %L after its write',
                        '\(name(table))', v_key);
                END IF;
                IF v_outcome <> \(PostgresJournalOutcome.inserted.literal) AND (r.kind <> v_kind
                    OR r.payload <> v_payload OR r.parent_key IS NOT NULL) THEN
                    RAISE EXCEPTION USING ERRCODE = '23505',
                        MESSAGE = format('the idempotency key %L is already used by a different command', v_key),
                        HINT = 'enqueue it with the same kind and payload, or under another key';
                END IF;
                RETURN r;
            END
            $fn$
            """
    }

    /// Creates each function (without and with a priority) when it is missing, or calls a batch
    /// function of another version.
    static func prepare(_ table: String, on connection: PostgresConnection, logger: Logger) async throws {
        for withPriority in [false, true] {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append("\"\(name(table))\"(\(signature(withPriority: withPriority)))")
            bindings.append("\"\(PostgresJournalBatchFunction.name(table))\"(")
            let query = PostgresQuery(
                unsafeSQL: """
                    SELECT coalesce((SELECT position($2::text IN p.prosrc) > 0 FROM pg_proc AS p
                        WHERE p.oid = to_regprocedure($1::text)), false)
                    """, binds: bindings)
            let current = try await connection.rowsWhileOpen(query, logger: logger).first?.decode(Bool.self) ?? false
            if !current {
                try await connection.rowsWhileOpen(
                    PostgresQuery(unsafeSQL: create(table, withPriority: withPriority)), logger: logger)
            }
        }
    }
}
