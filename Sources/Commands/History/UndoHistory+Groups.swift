extension UndoHistory {
    /// Runs `body` as a transaction and records the commands it performed as one step named
    /// `name` (nested groups are steps of it). If the body fails, the commands it performed
    /// are undone in reverse and nothing is recorded.
    ///
    /// ```swift
    /// try await history.group("Move 3 shapes") { step in
    ///     for shape in selection { try await step(Move(shape, by: offset)) }
    /// }
    /// history.undoActionName  // "Move 3 shapes": one undo moves all three back
    /// ```
    ///
    /// The commands run as the body performs them; other operations on the history may run in
    /// between. The group enters the history when the body returns. A group that performed
    /// nothing records nothing.
    ///
    /// - Throws: ``TransactionError`` naming the step that failed.
    public func group<Result>(
        _ name: String, cost: Int = 0, _ body: (TransactionScope) async throws -> Result
    ) async throws(TransactionError) -> Result {
        let scope = TransactionScope(name: name, observer: nil)
        let result = try await scope.run(body)
        if !scope.completedSteps.isEmpty {
            await record(scope.completedTransaction, cost: cost)
        }
        return result
    }
}
