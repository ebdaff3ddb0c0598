extension CommandJournal {
    /// Throws ``CommandJournalError/unsupported(operation:)``: a journal that keeps paused
    /// queues implements it.
    public func pause(queue: String) async throws {
        throw CommandJournalError.unsupported(operation: "pause(queue:)")
    }

    /// Throws ``CommandJournalError/unsupported(operation:)``: a journal that keeps paused
    /// queues implements it.
    public func resume(queue: String) async throws {
        throw CommandJournalError.unsupported(operation: "resume(queue:)")
    }

    /// Throws ``CommandJournalError/unsupported(operation:)``: a journal that keeps paused
    /// queues implements it.
    public func pausedQueues() async throws -> Set<String> {
        throw CommandJournalError.unsupported(operation: "pausedQueues()")
    }
}
