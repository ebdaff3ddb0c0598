/// What the workflow fleet test counted.
public struct WorkflowFleetReport: Sendable, Hashable, CustomStringConvertible {
    /// Workers killed with SIGKILL (the deploy's kills too).
    public var kills = 0
    /// Workers paused with SIGSTOP (for one to five leases) and resumed with SIGCONT.
    public var pauses = 0
    /// Database restarts and terminated backends (PostgreSQL).
    public var databaseFaults = 0
    /// Workers that exited on their own and were started again.
    public var revived = 0
    /// Orders whose start returned (durable).
    public var started = 0
    /// Orders whose run finished done.
    public var done = 0
    /// Orders the carrier refused whose run rolled back, each compensation run.
    public var compensated = 0
    /// Of the runs done or compensated, those that kept the first code path (started before the deploy, past the patch).
    public var firstPath = 0
    /// Of the runs done or compensated, those that took the patched path.
    public var patchedPath = 0
    /// Children whose run finished done.
    public var children = 0
    /// Messages received, one per order.
    public var messages = 0
    /// Step executions run again by a later attempt (the step had finished, but its worker was
    /// killed or paused before its output was written): the effect's key absorbed them.
    public var rerunSteps = 0
    /// Executions the ledger refused because a later attempt at their run had reached it.
    public var refusedStaleWrites = 0

    /// "31 kills, 9 pauses, 0 database faults, 1000 started, 900 done, 100 compensated (412 first
    /// path, 588 patched), 1000 children, 1000 messages, 37 steps run again, 12 stale writes refused, 0 revived".
    public var description: String {
        "\(kills) kills, \(pauses) pauses, \(databaseFaults) database faults, \(started) started, \(done) done, "
            + "\(compensated) compensated (\(firstPath) first path, \(patchedPath) patched), \(children) children, \(messages) messages, "
            + "\(rerunSteps) steps run again, \(refusedStaleWrites) stale writes refused, \(revived) revived"
    }
}
