extension CommandQueue {
    /// Pauses the queue, durably and for the whole fleet: until ``resume()``, no worker of any
    /// process claims its records. The work already claimed runs and settles as usual, and
    /// callers can still enqueue: the jobs wait, due, for the resume.
    ///
    /// ```swift
    /// try await payments.pause()   // the payment provider is down: stop starting charges
    /// try await payments.enqueue(Charge(order: 43, cents: 990), key: "order-43/charge")  // waits
    /// try await payments.resume()  // every worker of the queue claims again, at once
    /// ```
    ///
    /// Pausing a paused queue changes nothing. A claim that was already under way when the
    /// pause committed may still take records; none starts after.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` on a journal that is no
    ///   ``CommandJournalManagement`` (every journal of BehaviorKit is one).
    public func pause() async throws {
        try await management("pausing a queue").pause(queue: name)
    }

    /// Resumes the queue after ``pause()``: its workers are woken at once (those of this
    /// process, and those of others by the store's notifications: PostgreSQL's `NOTIFY`,
    /// SQLite's watcher of the file; or by their poll), and claim its due records again.
    public func resume() async throws {
        try await management("resuming a queue").resume(queue: name)
    }

    /// Whether the queue is paused now.
    public func isPaused() async throws -> Bool {
        try await management("reading whether a queue is paused").pausedQueues().contains(name)
    }
}

extension CommandQueue {
    /// The queue's journal, for what an operator does (``CommandJournalManagement``).
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` naming `operation` and the
    ///   journal's type, when the journal is no ``CommandJournalManagement``.
    func management(_ operation: String) throws -> any CommandJournalManagement {
        guard let management = journal as? any CommandJournalManagement else {
            throw CommandJournalError.unsupported(
                operation: "\(operation): \(type(of: journal)) is no CommandJournalManagement")
        }
        return management
    }
}
