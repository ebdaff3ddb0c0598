import Logging
import PostgresNIO

/// A statement of the journal, run as a named prepared statement: each connection parses and
/// plans it once, then runs it in one round trip.
///
/// postgres-nio keys prepared statements by a *type*'s static `name` and `sql`, while the
/// journal's SQL names a table chosen at run time; so the type reads both from a task-local
/// that ``PostgresConnection/run(_:_:logger:)`` sets around each execution. The name is the
/// SQL's hash: two journals on one table share their statements, two tables never do.
struct PreparedJournalStatement: PostgresPreparedStatement {
    struct Text: Sendable {
        let name: String
        let sql: String

        init(_ sql: String) {
            self.sql = sql
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in sql.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            self.name = "behaviorkit_" + String(hash, radix: 16)
        }
    }

    @TaskLocal static var current: Text?

    static var name: String { current?.name ?? "behaviorkit_unset" }
    static var sql: String { current?.sql ?? "SELECT 1 WHERE false" }

    typealias Row = PostgresRow

    let bindings: PostgresBindings

    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

extension PostgresConnection {
    /// Runs `statement` with `bindings` as a prepared statement; returns its rows.
    /// `confirmingCommit`: the statement runs alone, in its own implicit transaction; its rows
    /// are returned once that committed (``ImplicitCommit``).
    ///
    /// A connection already closed fails at once (``ConnectionClosedBeforeSending``): postgres-nio
    /// would never answer the statement (``whileOpen(_:)``). Its `execute` is async only, so the
    /// state is read just before the write, not in the same turn of the event loop: a close in
    /// between is still missed, but only there.
    func run(
        _ statement: PreparedJournalStatement.Text, _ bindings: PostgresBindings, logger: Logger,
        confirmingCommit: Bool = false
    ) async throws -> [PostgresRow] {
        guard !isClosed else { throw ConnectionClosedBeforeSending() }
        return try await PreparedJournalStatement.$current.withValue(statement) {
            var rows: [PostgresRow] = []
            let sequence = try await execute(PreparedJournalStatement(bindings: bindings), logger: logger)
            // Sent now, queued behind the statement: the server gets it as soon as it answered.
            let confirmation = confirmingCommit ? ImplicitCommit.send(on: self, logger: logger) : nil
            for try await row in sequence {
                rows.append(row)
            }
            if let confirmation { try await ImplicitCommit.wait(for: confirmation) }
            return rows
        }
    }
}
