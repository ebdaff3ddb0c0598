import BehaviorKitSync

extension WorkflowContext {
    /// Whether the run takes the new path of a change to its workflow's code: `true` for a run
    /// that reaches this call with nothing recorded here (a new run, or one that had not got
    /// this far when the code changed), `false` for a run that recorded something else here
    /// before the patch existed, which goes on down the old path. The answer is written down
    /// (a `true` takes a position), so every later attempt at the run gets it again: DBOS's
    /// `patch()` and Temporal's patching.
    ///
    /// ```swift
    /// try await context.step("reserve") { _ in try await stock.reserve(order) }
    /// if try await context.patched("insure-shipping") {
    ///     try await context.step("insure") { _ in try await insurer.cover(order) }
    /// }
    /// try await context.sleep(for: .seconds(3_600))  // runs that slept here before the patch go on
    /// ```
    ///
    /// Keep the `if` until every run that started before the patch has finished; then the old
    /// path can go, and the call with it only once no run recorded the patch either.
    ///
    /// - Throws: the journal's error when the patch cannot be written down (the run stops and
    ///   is taken up again).
    public func patched(_ id: String) async throws -> Bool {
        let position = try position(taking: false)
        if let record = recorded[position] {
            // A run from before the patch recorded its old path here: the position stays its.
            guard record.entry.kind == WorkflowRecord.patchKind, record.entry.payload == Array(id.utf8) else {
                return false
            }
            state.withLock { $0.position += 1 }
            return true
        }
        state.withLock { $0.position += 1 }
        let entry = entry(position, kind: WorkflowRecord.patchKind, name: id)
        let changes = changes(with: .settle(entry, as: .done(output: nil)))
        try await journaled { try await journal.settle(changes, lease: lease) }
        return true
    }
}
