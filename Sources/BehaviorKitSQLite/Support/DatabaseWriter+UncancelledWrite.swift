import GRDB

extension DatabaseWriter {
    /// Runs `updates` in a write transaction on the writer's queue, as GRDB's async `write`
    /// does, but to the end whatever becomes of the awaiting task: a group commit's batch runs in
    /// its first caller's task (`GroupCommit`'s `commitsLoneWritesInCaller`), and a cancelled
    /// caller must not interrupt a commit, as it never did in a drain task of its own.
    func uncancelledWrite<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            asyncWrite(updates) { _, result in continuation.resume(with: result) }
        }
    }
}
