/// Why an ``UndoHistory`` could not undo or redo: a clear answer, never a crash.
///
/// ```swift
/// do {
///     try await history.undo()
/// } catch {
///     print(error)  // "nothing to undo"
/// }
/// ```
///
/// Errors compare equal when they say the same (the command's errors with `==` when they are
/// `Equatable`, else by type and description), so that tests can expect them:
/// `#expect(throws: UndoHistoryError.nothingToUndo) { try await history.undo() }`.
public enum UndoHistoryError: Error, Equatable, CustomStringConvertible {
    /// There is nothing to undo.
    case nothingToUndo
    /// There is nothing to redo.
    case nothingToRedo
    /// `undo(at:)` or `setActionName(_:at:)` was given an index outside the history.
    case noEntry(index: Int, count: Int)
    /// `setIndex(_:)` was given an index outside `0...count`.
    case indexOutOfRange(index: Int, count: Int)
    /// The command's `undo()` threw; the history is unchanged.
    case undoFailed(action: String, error: any Error)
    /// The command's `execute()` threw while redoing; the history is unchanged.
    case redoFailed(action: String, error: any Error)
    /// Groups are open (named outermost first) that the operation cannot close first: nested
    /// groups, or a ``UndoHistory/group(_:cost:_:)`` whose body is running.
    case groupOpen(operation: String, groups: [String])
    /// `endGroup()` found no group opened by `beginGroup(_:cost:)`.
    case noOpenGroup

    /// A readable account naming the action or index.
    public var description: String {
        switch self {
        case .nothingToUndo: "nothing to undo"
        case .nothingToRedo: "nothing to redo"
        case .noEntry(let index, let count):
            count == 0
                ? "no entry at index \(index): the history is empty"
                : "no entry at index \(index): the history has entries 0...\(count - 1)"
        case .indexOutOfRange(let index, let count):
            "no index \(index): the history's indices are 0...\(count)"
        case .undoFailed(let action, let error): "could not undo '\(action)': \(error)"
        case .redoFailed(let action, let error): "could not redo '\(action)': \(error)"
        case .groupOpen(let operation, let groups):
            "cannot \(operation) while groups are open: "
                + groups.map { "'\($0)'" }.joined(separator: " > ") + "; end them first"
        case .noOpenGroup: "no group to end: beginGroup was not called, or its group has ended"
        }
    }

    /// Whether both say the same.
    public static func == (lhs: UndoHistoryError, rhs: UndoHistoryError) -> Bool {
        switch (lhs, rhs) {
        case (.nothingToUndo, .nothingToUndo), (.nothingToRedo, .nothingToRedo), (.noOpenGroup, .noOpenGroup):
            true
        case (.noEntry(let a, let b), .noEntry(let c, let d)),
            (.indexOutOfRange(let a, let b), .indexOutOfRange(let c, let d)):
            a == c && b == d
        case (.undoFailed(let a, let e), .undoFailed(let b, let f)),
            (.redoFailed(let a, let e), .redoFailed(let b, let f)):
            a == b && errorsMatch(e, f)
        case (.groupOpen(let a, let g), .groupOpen(let b, let h)):
            a == b && g == h
        default:
            false
        }
    }
}
