/// Some jobs of ``CommandQueue/enqueue(contentsOf:)`` were refused; every other job was
/// written down (``records``), so that calling again with the refused ones mended loses
/// nothing and enqueues nothing twice.
public struct BulkEnqueueError: Error, CustomStringConvertible {
    /// A refused job: its place in the call, its key, and why.
    public struct Refusal: Sendable {
        /// The job's index in the array passed.
        public let index: Int
        /// The job's key.
        public let key: String
        /// Why the journal refused it (``CommandJournalError/conflictingEntry(key:)``, or the
        /// journal's own error).
        public let error: any Error
    }

    /// The refused jobs, in the order passed.
    public let refusals: [Refusal]
    /// Each job's record in the order passed, `nil` where it was refused.
    public let records: [CommandJournalRecord?]

    /// "2 of 1000 jobs were not enqueued (the others were): job 12 (key "order-9"): …".
    public var description: String {
        let listed = refusals.prefix(3).map { "job \($0.index) (key \"\($0.key)\"): \($0.error)" }
        let more = refusals.count > 3 ? "; and \(refusals.count - 3) more" : ""
        return "\(refusals.count) of \(records.count) jobs were not enqueued (the others were): "
            + listed.joined(separator: "; ") + more
    }
}
