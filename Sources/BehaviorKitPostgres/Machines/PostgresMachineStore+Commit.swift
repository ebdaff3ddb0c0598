import BehaviorKitSync
public import DurableMachines

extension PostgresMachineStore {
    /// Commits `commit` in one transaction, when the instance is at `commit.expectedVersion` and
    /// no step of it has the commit's event id; see `MachineStore.commit(_:)`. Commits arriving
    /// together from many tasks go to the server as one call of the commit function; each is
    /// answered once its batch committed (durable, as the server's `synchronous_commit` says).
    ///
    /// - Throws: ``PostgresMachineStoreError``: `.invalidValue` for text holding U+0000 or a
    ///   step whose sequence is not the expected version plus one; `.closed`, `.unreachable`,
    ///   `.outcomeUnknown` and the server's refusals.
    public func commit(_ commit: MachineCommit) async throws -> MachineCommitResult {
        try committer.validate(commit)
        do {
            try connections.enter()
            defer { connections.leave() }
            return try await commits.submit(commit)
        } catch {
            throw storeError(error)
        }
    }
}
