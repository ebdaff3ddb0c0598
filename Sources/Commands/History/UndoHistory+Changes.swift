extension UndoHistory {
    /// A stream of every change, starting with the history as it is
    /// (``UndoHistoryChange/Kind/current``), so that a UI can enable its buttons.
    ///
    /// ```swift
    /// for await change in await history.changes() {
    ///     undoButton.isEnabled = change.status.canUndo
    ///     undoButton.title = change.status.undoMenuTitle
    /// }
    /// ```
    ///
    /// The stream ends when the history is released.
    public func changes(
        bufferingPolicy: AsyncStream<UndoHistoryChange>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<UndoHistoryChange> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: UndoHistoryChange.self, bufferingPolicy: bufferingPolicy)
        let id = nextStreamID
        nextStreamID += 1
        streams.append((id, continuation))
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeStream(id) }
        }
        continuation.yield(UndoHistoryChange(kind: .current, status: status))
        return stream
    }

    func removeStream(_ id: UInt64) {
        streams.removeAll { $0.id == id }
    }

    /// Tells the streams, if any, what happened (the kind is made only when someone listens).
    func notify(_ kind: () -> UndoHistoryChange.Kind) {
        guard !streams.isEmpty else { return }
        let change = UndoHistoryChange(kind: kind(), status: status)
        for stream in streams { stream.continuation.yield(change) }
    }
}
