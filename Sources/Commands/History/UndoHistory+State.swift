extension UndoHistory {
    /// The history's mutable fields.
    ///
    /// They live behind a pointer rather than as stored properties of the class: an access to
    /// a class's stored property is checked for exclusivity at run time whenever the compiler
    /// cannot prove that no other access overlaps it (a release may run any deinit), and those
    /// checks were a third of the cost of `perform`, `undo` and `redo`. The history lives in
    /// one isolation domain and its accesses are short and synchronous, so none overlaps.
    struct State {
        var done: [Entry] = []
        var undone: [Entry] = []
        var totalCost = 0
        /// `done.count` at the save point; `nil` when the saved state can no longer be reached.
        var cleanIndex: Int? = 0
        var busy = false
        var turnWaiters: [CheckedContinuation<Void, Never>] = []
        var streams: [AsyncStream<UndoHistoryChange>.Continuation] = []
        /// The open groups, outermost first.
        var openGroups: [OpenGroup] = []
        /// Counts the edits made inside open groups, so that a save point taken inside one
        /// knows whether the group changed after it.
        var groupEdits = 0
        /// `groupEdits` when the outermost open group opened.
        var groupEditsAtOpen = 0
        /// `groupEdits` when ``UndoHistory/markClean()`` was called inside an open group.
        var cleanMark: Int?
        var limit: Int?
        var costLimit: Int?
    }

    var done: [Entry] {
        _read { yield state.pointee.done }
        _modify { yield &state.pointee.done }
    }

    var undone: [Entry] {
        _read { yield state.pointee.undone }
        _modify { yield &state.pointee.undone }
    }

    var totalCost: Int {
        get { state.pointee.totalCost }
        set { state.pointee.totalCost = newValue }
    }

    var cleanIndex: Int? {
        get { state.pointee.cleanIndex }
        set { state.pointee.cleanIndex = newValue }
    }

    var busy: Bool {
        get { state.pointee.busy }
        set { state.pointee.busy = newValue }
    }

    var turnWaiters: [CheckedContinuation<Void, Never>] {
        _read { yield state.pointee.turnWaiters }
        _modify { yield &state.pointee.turnWaiters }
    }

    var streams: [AsyncStream<UndoHistoryChange>.Continuation] {
        _read { yield state.pointee.streams }
        _modify { yield &state.pointee.streams }
    }

    var openGroups: [OpenGroup] {
        _read { yield state.pointee.openGroups }
        _modify { yield &state.pointee.openGroups }
    }

    var groupEdits: Int {
        get { state.pointee.groupEdits }
        set { state.pointee.groupEdits = newValue }
    }

    var groupEditsAtOpen: Int {
        get { state.pointee.groupEditsAtOpen }
        set { state.pointee.groupEditsAtOpen = newValue }
    }

    var cleanMark: Int? {
        get { state.pointee.cleanMark }
        set { state.pointee.cleanMark = newValue }
    }
}
