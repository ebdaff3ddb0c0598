/// Why a workflow, or one of its steps, stopped. Each case names the run's key.
///
/// ```swift
/// do { _ = try await handle.result() } catch WorkflowError.failed(let key, let reason) {
///     print("\(key) failed: \(reason)")  // its error, as the journal recorded it
/// }
/// ```
public enum WorkflowError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The run failed: the workflow threw, or stopped on one of the errors below; `reason` is
    /// the error as the journal recorded it. Starting the key again answers this again.
    case failed(key: String, reason: String)
    /// A step failed (after its retries): the journal keeps its error, and a run that asks for
    /// the step again gets this again without running it.
    case stepFailed(key: String, step: String, reason: String)
    /// The run asked, at `position`, for another step (or sleep, or receive) than the journal
    /// recorded there: the code changed under a run that started before, or is not
    /// deterministic. The run stops rather than mix two versions.
    case nondeterministic(key: String, position: Int, recorded: String, requested: String)
    /// No workflow of this name is registered with the worker that took the run.
    case unregistered(name: String, key: String)
    /// The input or output does not encode or decode as the workflow's types.
    case undecodable(key: String, reason: String)
    /// A run's key or a topic the workflows cannot use: `key` is the one refused, `reason`
    /// says why (a `"/"` in it, which would collide with the journal keys of another run's
    /// steps and messages).
    case invalidKey(key: String, reason: String)
    /// The run was cancelled (``Workflows/cancel(_:reason:)``, or the journal's
    /// ``CommandJournalManagement/cancel(_:reason:)`` from the console or another process)
    /// while this attempt held it: thrown by the step, sleep or receive it stopped at, so that
    /// nothing after it runs; `reason` is the canceller's. The run settles failed, cancelled.
    case cancelled(key: String, reason: String)
    /// The run failed or was cancelled, and every finished step with a compensation
    /// (`WorkflowContext.step(_:retry:_:compensate:)`) was compensated: the run settled
    /// compensated. `reason` is why it rolled back: the workflow's error, or the cancellation's.
    case compensated(key: String, reason: String)

    /// Whether `error` is a ``cancelled(key:reason:)``.
    static func isCancellation(_ error: any Error) -> Bool {
        if case .cancelled? = error as? WorkflowError { return true }
        return false
    }

    /// Names the run and what happened.
    public var description: String {
        switch self {
        case .failed(let key, let reason): "the workflow '\(key)' failed: \(reason)"
        case .stepFailed(let key, let step, let reason): "step '\(step)' of the workflow '\(key)' failed: \(reason)"
        case .nondeterministic(let key, let position, let recorded, let requested):
            "the workflow '\(key)' asked for \(requested) at position \(position), where the journal recorded "
                + "\(recorded): its code is not the code the run started with (or is not deterministic)"
        case .unregistered(let name, let key):
            "no workflow named '\(name)' is registered here, so '\(key)' cannot run"
        case .undecodable(let key, let reason): "the workflow '\(key)' cannot encode or decode a value: \(reason)"
        case .invalidKey(let key, let reason): "'\(key)' cannot name a workflow's run or topic: \(reason)"
        case .cancelled(let key, let reason):
            "the workflow '\(key)' was cancelled" + (reason.isEmpty ? "" : ": \(reason)")
        case .compensated(let key, let reason):
            "the workflow '\(key)' was compensated, its finished steps undone, after: \(reason)"
        }
    }
}
