import DurableMachines
import GRDB

/// One write a SQLite machine store's group commit takes: a commit planned elsewhere, or a plan
/// run on the instance as the write transaction reads it (``SQLiteMachineStore/update(_:_:)``).
enum SQLiteMachineWrite: Sendable {
    case commit(MachineCommit)
    case update(MachineKey, @Sendable (MachineInstanceRecord?) throws -> (MachineCommit, any Sendable)?)

    /// Runs the write in a savepoint of `db`'s transaction: what it did, or nothing at all when
    /// it threw.
    func run(_ db: Database) throws -> SQLiteMachineWriteOutput {
        var output = SQLiteMachineWriteOutput.skipped
        try db.inSavepoint {
            switch self {
            case .commit(let commit):
                output = .result(try MachineStoreSQL.commit(commit, db), nil)
            case .update(let key, let plan):
                let read = try MachineStoreSQL.instanceRead(key, db)
                guard let (commit, planned) = try plan(read?.record) else { return .commit }
                // The plan's commit, checked against the row read above when it is the same instance.
                let sameInstance = commit.key == key
                output = .result(
                    try MachineStoreSQL.commit(commit, db, read: sameInstance ? .some(read?.version) : nil), planned)
            }
            return .commit
        }
        return output
    }
}

/// What a ``SQLiteMachineWrite`` did.
enum SQLiteMachineWriteOutput: Sendable {
    /// The commit's result, with the plan's own result when a plan made it.
    case result(MachineCommitResult, (any Sendable)?)
    /// The plan had nothing to commit.
    case skipped
}
