/// What became of ``MachineStore/update(_:_:)``: the plan committed, had nothing to commit, or
/// was refused as a commit is.
public enum MachineUpdate<Planned: Sendable>: Sendable {
    /// The plan's commit committed; here is what the plan made beside it.
    case committed(Planned)
    /// The plan had nothing to commit.
    case skipped
    /// Nothing changed: the instance was not at the version the plan read (a store that reads
    /// and commits apart; `nil` when it does not exist).
    case versionConflict(current: Int64?)
    /// Nothing changed: a step with the commit's event id committed before; here it is.
    case duplicateEvent(MachineStepRecord)
}

extension MachineStore {
    /// Reads the instance, plans, then commits: two calls, so that a writer in between makes it
    /// a ``MachineUpdate/versionConflict(current:)``. A store that can hold its write lock
    /// across the read implements ``MachineStore/update(_:_:)`` itself.
    public func update<Planned: Sendable>(
        _ key: MachineKey, _ plan: @escaping @Sendable (MachineInstanceRecord?) throws -> (MachineCommit, Planned)?
    ) async throws -> MachineUpdate<Planned> {
        guard let (commit, planned) = try plan(try await instance(key)) else { return .skipped }
        switch try await self.commit(commit) {
        case .committed: return .committed(planned)
        case .versionConflict(let current): return .versionConflict(current: current)
        case .duplicateEvent(let recorded): return .duplicateEvent(recorded)
        }
    }
}
