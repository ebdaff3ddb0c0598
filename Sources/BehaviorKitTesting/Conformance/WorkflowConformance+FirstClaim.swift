import BehaviorKitSync
import Commands

extension WorkflowConformance {
    /// DBOS: a workflow called directly runs once under its id, and recovery takes up only the
    /// workflows of an executor that stopped (https://docs.dbos.dev/explanations/how-workflows-work).
    /// Here a process's worker makes its first claim — the one that takes over what an earlier
    /// incarnation of the same worker held — just after this process's caller began a run in
    /// its own task (``Workflows/run(_:key:input:)``), before the caller ran a step: the claim
    /// takes nothing, and the run's step runs once, in the caller, at the first attempt.
    static func aWorkersFirstClaimTakesNoRunItsCallerJustBegan(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a worker's first claim takes no run that a caller of its process just began (DBOS direct call)"
        let effects = WorkflowEffects()
        let greet = greeting(effects, named: "greet inline")
        let hooked = BeginHook(journal)
        let workflows = worker(hooked, clock, registered(greet), owner: "process-1")
        let claimed = LockedValue<Int?>(nil)
        // The worker's first claim, once the caller's begin committed and before it runs a step.
        hooked.afterBegin {
            let count = try? await workflows.runDue()
            claimed.withLock { $0 = count }
        }
        let answer = try await workflows.run(greet, key: "inline-1", input: "ada")
        try expect(answer == "hello ada", check, "the caller answered \(answer)")
        try expect(
            claimed.withLock { $0 } == 0, check,
            "the worker's first claim took \(String(describing: claimed.withLock { $0 })) runs")
        try expect(effects.count("greet ada") == 1, check, "the step ran \(effects.log)")
        let record = try await journal.record(forKey: "inline-1")
        try expect(
            record?.status == .done && record?.attempts == 1, check, "the run's record is \(String(describing: record))"
        )
    }
}

/// A journal that runs a hook once, after the next begin on a queue committed and before it
/// answers: what another task of the process does at that moment.
final class BeginHook: ForwardingCommandJournal, @unchecked Sendable {
    private let hook = LockedValue<(@Sendable () async -> Void)?>(nil)

    /// Runs `body` after the next begin on a queue.
    func afterBegin(_ body: @escaping @Sendable () async -> Void) { hook.withLock { $0 = body } }

    override func begin(
        _ entry: CommandJournalEntry, queue: String, lease: JournalLease
    ) async throws -> CommandJournalBegin {
        let begun = try await base.begin(entry, queue: queue, lease: lease)
        let body = hook.withLock { hook in
            defer { hook = nil }
            return hook
        }
        await body?()
        return begun
    }
}
