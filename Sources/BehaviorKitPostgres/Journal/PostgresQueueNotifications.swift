import Logging
import PostgresNIO

/// The journal's queue notifications, server side: a trigger on the table that sends
/// `NOTIFY "<table>_queue", '<queue>'` when a record of a queue becomes claimable — inserted
/// pending with no owner (an enqueue, from Swift, from SQL or in an application's transaction),
/// or updated to that (a retry, a release) — delivered at its transaction's commit, and merged by
/// the server when one transaction makes many of one queue. Claims, renewals and settlements
/// send nothing. A queue name of 7,000 bytes or more is sent as `''`, which wakes every queue's
/// workers (a payload has at most 8,000).
///
/// A statement that writes many records of one queue (a bulk enqueue) notifies once itself
/// (``notifyOnce(_:queue:)``) and sets ``quiet`` for its transaction, which the trigger's
/// condition reads, so that its rows call no function each.
enum PostgresQueueNotifications {
    /// The setting a statement that notifies for itself sets to `on` for its transaction
    /// (`set_config(…, true)`): the trigger then leaves its rows alone.
    static let quiet = "behaviorkit.queue_notified"

    /// The notification of `queue` (an SQL expression) on `table`'s channel, as the trigger sends it.
    static func notifyOnce(_ table: String, queue: String) -> String {
        "pg_notify('\(channel(table))', CASE WHEN octet_length(\(queue)) < 7000 THEN \(queue) ELSE '' END)"
    }

    /// The trigger's condition, which a table made before it had not (``prepare(_:on:logger:)``
    /// makes the trigger again then).
    static let condition =
        "NEW.queue IS NOT NULL AND NEW.status = 'pending' AND NEW.owner IS NULL "
        + "AND current_setting('\(quiet)', true) IS DISTINCT FROM 'on'"

    /// The channel of `table`'s notifications.
    static func channel(_ table: String) -> String { "\(table)_queue" }

    /// The trigger's (and its function's) name.
    static func trigger(_ table: String) -> String { "\(table)_notify" }

    static func create(_ table: String) -> [String] {
        let t = "\"\(table)\""
        let name = "\"\(trigger(table))\""
        return [
            """
            CREATE OR REPLACE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $fn$
            BEGIN
                PERFORM pg_notify('\(channel(table))',
                    CASE WHEN octet_length(NEW.queue) < 7000 THEN NEW.queue ELSE '' END);
                RETURN NULL;
            END
            $fn$
            """,
            """
            CREATE TRIGGER \(name) AFTER INSERT OR UPDATE OF status, owner, lease_expires_at ON \(t)
            FOR EACH ROW WHEN (\(condition))
            EXECUTE FUNCTION \(name)()
            """,
        ]
    }

    /// Makes the trigger when it is missing, or again when an earlier release made it without
    /// ``quiet`` in its condition. A role that may not (it does not own the table) opens the
    /// journal all the same, and its workers are woken by their own process and by polling (or by
    /// the trigger as it was): the refusal is logged, not thrown. Runs inside the schema's
    /// transaction.
    static func prepare(_ table: String, on connection: PostgresConnection, logger: Logger) async throws {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append("\"\(table)\"")
        bindings.append(trigger(table))
        let query = PostgresQuery(
            unsafeSQL:
                "SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE tgrelid = to_regclass($1::text) AND tgname = $2",
            binds: bindings)
        let present = try await connection.rowsWhileOpen(query, logger: logger).first?.decode(String.self)
        if let present, present.contains(quiet) { return }
        try await connection.rowsWhileOpen("SAVEPOINT behaviorkit_notify", logger: logger)
        do {
            let statements = create(table)
            if present != nil {
                try await connection.rowsWhileOpen(
                    PostgresQuery(unsafeSQL: "DROP TRIGGER \"\(trigger(table))\" ON \"\(table)\""), logger: logger)
            }
            for sql in statements {
                try await connection.rowsWhileOpen(PostgresQuery(unsafeSQL: sql), logger: logger)
            }
            try await connection.rowsWhileOpen("RELEASE SAVEPOINT behaviorkit_notify", logger: logger)
        } catch {
            try await connection.runWhileOpen("ROLLBACK TO SAVEPOINT behaviorkit_notify", logger: logger)
            logger.warning(
                "the journal's queue notifications could not be made; other processes' workers are woken by polling",
                metadata: ["error": "\(String(reflecting: error))"])
        }
    }
}
