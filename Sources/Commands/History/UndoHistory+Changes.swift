extension UndoHistory {
    /// A stream of every change, starting with the history as it is
    /// (``UndoHistoryChange/Kind/current``), so that a UI can enable its buttons.
    ///
    /// ```swift
    /// for await change in history.changes() {
    ///     undoButton.isEnabled = change.status.canUndo
    ///     undoButton.title = change.status.undoMenuTitle
    /// }
    /// ```
    ///
    /// The stream ends when the history is released. A history with no stream pays nothing
    /// for this; a stream whose consumer stopped is forgotten at the next change.
    public func changes(
        bufferingPolicy: AsyncStream<UndoHistoryChange>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<UndoHistoryChange> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: UndoHistoryChange.self, bufferingPolicy: bufferingPolicy)
        continuation.yield(UndoHistoryChange(kind: .current, status: status))
        streams.append(continuation)
        return stream
    }
}
