/// Why a journal refused a request. Each case names the key, so that a caller (an HTTP
/// handler, say) can answer with what happened to it.
///
/// ```swift
/// do { try await invoker.perform(charge, key: "order-42/charge") } catch let error as CommandJournalError {
///     if case .alreadySettled(_, .failed, let reason) = error { return .unprocessable(reason) }
///     if case .busy = error { return .conflict }
/// }
/// ```
public enum CommandJournalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No record has this idempotency key.
    case unknownKey(String)
    /// The key is taken by a record with a different kind, payload or parent.
    case conflictingEntry(key: String)
    /// The key already settled: the work is not run again. A key that settled `done` is not an
    /// error (the caller gets `.alreadyDone`); failed and compensated ones are.
    case alreadySettled(key: String, status: CommandJournalStatus, reason: String?)
    /// The key is pending under another worker's live lease (or waits on a queue): it is not
    /// run twice at once.
    case busy(key: String, owner: String?)
    /// This worker no longer holds the record (or its transaction): its lease expired and
    /// another worker took it over, or it settled. The work stops; the new owner settles it.
    case leaseLost(key: String, owner: String?)
    /// An operator's cancellation cannot apply to the record: it settled, it is a step (cancel
    /// its transaction), or it is a command a worker runs now; `reason` says which.
    case cannotCancel(key: String, status: CommandJournalStatus, reason: String)
    /// Only a failed or compensated root record can be retried; this one is `status` (or a step).
    case cannotRetry(key: String, status: CommandJournalStatus)
    /// The record cannot be forked: it is pending (it may still run), a step, or it ran on no
    /// queue and none was named; `reason` says which.
    case cannotFork(key: String, reason: String)
    /// The journal does not implement `operation` (a journal written before the management API).
    case unsupported(operation: String)

    /// A readable account naming the key.
    public var description: String {
        switch self {
        case .unknownKey(let key): "no journal record has the idempotency key '\(key)'"
        case .conflictingEntry(let key):
            "the idempotency key '\(key)' is already used by a different command"
        case .alreadySettled(let key, let status, let reason):
            "the idempotency key '\(key)' already settled as \(status)" + (reason.map { " (\($0))" } ?? "")
                + "; it is not run again"
        case .busy(let key, let owner?):
            "the idempotency key '\(key)' is being run by worker '\(owner)'; it is not run twice at once"
        case .busy(let key, nil):
            "the idempotency key '\(key)' waits on a queue; it is not run twice"
        case .leaseLost(let key, let owner):
            "this worker no longer holds '\(key)'"
                + (owner.map { ": worker '\($0)' took it over" } ?? ": it was settled or released")
                + "; the work stopped here"
        case .cannotCancel(let key, let status, let reason):
            "the record '\(key)' (\(status)) cannot be cancelled: \(reason)"
        case .cannotRetry(let key, let status):
            "the record '\(key)' is \(status): only a failed or compensated command or transaction can be retried"
        case .cannotFork(let key, let reason):
            "the record '\(key)' cannot be forked: \(reason)"
        case .unsupported(let operation):
            "this journal does not implement \(operation)"
        }
    }
}
