/// Why ``JobHandle/result()`` has no output: the job settled otherwise than done, or there is
/// no such job. Each case names the job's key.
///
/// ```swift
/// do {
///     _ = try await payments.job(forKey: "order-42/charge").result()
/// } catch JobError.failed(let key, let reason) {
///     print("\(key) failed: \(reason)")
/// }
/// ```
public enum JobError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The job failed, for good (it used up its retries, or failed without any): the reason
    /// its record keeps.
    case failed(key: String, reason: String)
    /// An operator cancelled the job (``CommandJournalManagement/cancel(_:reason:)``), for `reason`: before
    /// it ran, or, a transaction, while it ran (its steps were then compensated).
    case cancelled(key: String, reason: String)
    /// The job (a transaction) was undone: its steps compensated.
    case compensated(key: String, reason: String?)
    /// No record has the key: it was never enqueued, or it was pruned.
    case unknownKey(String)
    /// The job is done, but its output does not decode as the type asked for.
    case undecodable(key: String, reason: String)

    /// The error a record that settled as `record` did answers; `nil` when it is done or pending.
    static func settled(_ record: CommandJournalRecord) -> JobError? {
        let key = record.entry.idempotencyKey
        switch record.status {
        case .pending, .done:
            return nil
        case .failed:
            if let reason = cancellation(record.failureReason) { return .cancelled(key: key, reason: reason) }
            return .failed(key: key, reason: record.failureReason ?? "failed")
        case .compensated:
            if let reason = cancellation(record.failureReason) { return .cancelled(key: key, reason: reason) }
            return .compensated(key: key, reason: record.failureReason)
        }
    }

    /// The operator's reason when `failureReason` is a cancellation's
    /// (``CommandJournalCancellation/reason(_:)``).
    private static func cancellation(_ failureReason: String?) -> String? {
        CommandJournalCancellation.reason(of: failureReason)
    }

    /// The error, naming the job.
    public var description: String {
        switch self {
        case .failed(let key, let reason): "job '\(key)' failed: \(reason)"
        case .cancelled(let key, let reason):
            reason.isEmpty ? "job '\(key)' was cancelled" : "job '\(key)' was cancelled: \(reason)"
        case .compensated(let key, let reason):
            "job '\(key)' was compensated" + (reason.map { ": \($0)" } ?? "")
        case .unknownKey(let key): "no job has the key '\(key)'"
        case .undecodable(let key, let reason): "job '\(key)' is done, but its output does not decode: \(reason)"
        }
    }
}
