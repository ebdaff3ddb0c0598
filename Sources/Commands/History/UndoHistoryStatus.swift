/// What an undo menu needs to know, read at one instant.
///
/// ```swift
/// let status = history.status
/// undoItem.title = status.undoMenuTitle  // "Undo Add 2 apples"
/// undoItem.isEnabled = status.canUndo
/// ```
public struct UndoHistoryStatus: Sendable, Hashable {
    /// The action the next undo undoes, or `nil` when there is none.
    public var undoActionName: String?
    /// The action the next redo redoes, or `nil` when there is none.
    public var redoActionName: String?
    /// How many steps can be undone.
    public var undoCount: Int
    /// How many steps can be redone.
    public var redoCount: Int
    /// Whether the history is at its save point.
    public var isClean: Bool

    /// Creates a status.
    public init(undoActionName: String?, redoActionName: String?, undoCount: Int, redoCount: Int, isClean: Bool) {
        self.undoActionName = undoActionName
        self.redoActionName = redoActionName
        self.undoCount = undoCount
        self.redoCount = redoCount
        self.isClean = isClean
    }

    /// Whether there is something to undo.
    public var canUndo: Bool { undoCount > 0 }
    /// Whether there is something to redo.
    public var canRedo: Bool { redoCount > 0 }
    /// "Undo Add 2 apples", or "Undo" when there is nothing to undo or the action has no name
    /// (as `UndoManager.undoMenuItemTitle`).
    public var undoMenuTitle: String { Self.menuTitle("Undo", undoActionName) }
    /// "Redo Add 2 apples", or "Redo" when there is nothing to redo or the action has no name.
    public var redoMenuTitle: String { Self.menuTitle("Redo", redoActionName) }

    private static func menuTitle(_ verb: String, _ action: String?) -> String {
        guard let action, !action.isEmpty else { return verb }
        return "\(verb) \(action)"
    }
}

/// One change of an ``UndoHistory``, as its ``UndoHistory/changes(bufferingPolicy:)`` stream
/// tells it.
public struct UndoHistoryChange: Sendable, Hashable {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// The stream started: ``status`` is the history as it is.
        case current
        /// An action was performed (a command or a group).
        case performed(String)
        /// An action was folded into the one before it (same coalescing key).
        case coalesced(String)
        /// An action was undone.
        case undone(String)
        /// An action was redone.
        case redone(String)
        /// The save point moved to the current state.
        case markedClean
        /// Every entry was forgotten.
        case cleared
        /// A step or an open group was given a new name (the new name).
        case renamed(String)
    }

    /// What happened.
    public var kind: Kind
    /// The history after it happened.
    public var status: UndoHistoryStatus

    /// Creates a change.
    public init(kind: Kind, status: UndoHistoryStatus) {
        self.kind = kind
        self.status = status
    }
}
