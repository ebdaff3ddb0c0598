/// Why an ``UndoHistory`` could not undo or redo: a clear answer, never a crash.
///
/// ```swift
/// do {
///     try await history.undo()
/// } catch {
///     print(error)  // "nothing to undo"
/// }
/// ```
public enum UndoHistoryError: Error, CustomStringConvertible {
    /// There is nothing to undo.
    case nothingToUndo
    /// There is nothing to redo.
    case nothingToRedo
    /// `undo(at:)` was given an index outside the undo stack.
    case noEntry(index: Int, count: Int)
    /// The command's `undo()` threw; the history is unchanged.
    case undoFailed(action: String, error: any Error)
    /// The command's `execute()` threw while redoing; the history is unchanged.
    case redoFailed(action: String, error: any Error)

    /// A readable account naming the action or index.
    public var description: String {
        switch self {
        case .nothingToUndo: "nothing to undo"
        case .nothingToRedo: "nothing to redo"
        case .noEntry(let index, let count):
            count == 0
                ? "no entry at index \(index): the history is empty"
                : "no entry at index \(index): the history has entries 0...\(count - 1)"
        case .undoFailed(let action, let error): "could not undo '\(action)': \(error)"
        case .redoFailed(let action, let error): "could not redo '\(action)': \(error)"
        }
    }
}
