import BehaviorKitSync
public import Commands

/// The checks every journal must pass to run workflows (`Workflows`): the in-memory journal
/// here, SQLite's and PostgreSQL's elsewhere. Each follows a rule DBOS documents for its
/// workflows, cited in its check: a key started again answers how it ran, a run resumes after
/// its last finished step, a run that asks for another step than the journal recorded stops,
/// a sleep (for a duration or until a date) never ends early and survives a restart, a
/// message is received once per id, or `nil` at the timeout, wakes the run that waits for it,
/// and is settled before the run settles though a worker still holds it (or failed to settle it), an event's latest value
/// wakes the caller that waits for it, a patch sends only new runs down the new path, children
/// fan out and in and reach their parent once, a child's settlement wakes its waiting parent,
/// cancelling a run cancels its children (and stops a run its caller or a worker holds at its
/// next step, one with nothing to write before it too), a
/// key with a `"/"` is refused, and a run in its caller's task (`Workflows.run(_:key:input:)`)
/// is written as a started run, is not taken by its own process's first claim, waits for a key
/// held elsewhere, is finished by a worker once its caller stopped, and is released while it
/// waits; a failed or cancelled run compensates its finished steps newest first, each once,
/// also after a takeover in the middle, and a failing compensation fails it, named; a fork
/// answers the steps before its position from a copy and runs the rest.
///
/// Call it from a test with a function that makes an empty journal on the given clock (the
/// checks move it to expire leases and end sleeps); it throws a
/// ``WorkflowConformanceFailure`` naming the first rule broken.
///
/// ```swift
/// @Test func sqliteRunsWorkflows() async throws {
///     try await WorkflowConformance.check { clock in
///         try SQLiteCommandJournal(path: temporaryFile(), clock: clock)
///     }
/// }
/// ```
public enum WorkflowConformance {
    /// Runs every check, each on a new journal from `makeJournal`, which must stamp records and
    /// judge leases by the clock it is given.
    public static func check(_ makeJournal: (ManualClock) async throws -> any CommandJournalManagement) async throws {
        try await CommandJournalConformance.run(checks, makeJournal)
    }

    static var checks: [CommandJournalConformance.Check] {
        [
            startingAKeyAgainAnswersHowItRan, aRunResumesAfterItsLastFinishedStep,
            aRunAskingForAnotherStepThanRecordedStops, aSleepNeverEndsEarlyAndSurvivesARestart,
            aMessageIsReceivedOncePerIdAndAReceiveTimesOut, aWaitingReceiveGetsAMessageSentLater,
            aFailedStepIsRecordedAndAnsweredAgain, aKeyWithASlashIsRefusedAndCollidesWithNoRun,
            aSleepUntilADateNeverEndsEarlyAndSurvivesARestart, anEventWakesItsWaiterAndTheLatestValueWins,
            aPatchSendsNewRunsDownTheNewPathAndOldRunsDownTheOld, childrenFanOutAndInAndReachTheirParentOnce,
            aSendWakesTheRunWaitingInReceive, aFailedChildFailsItsResultOnce, aChildsSettlementWakesItsWaitingParent,
            aChildKeyStartedBeforeAnswersThatRun, cancellingARunCancelsItsChildren,
            aRunInTheCallersTaskIsWrittenAsAStartedRun, aRunInTheCallersTaskWaitsForAKeyHeldElsewhere,
            aCallersRunIsFinishedByAWorkerOnceItsLeaseLapses, aCallersRunThatWaitsIsReleasedAndTheCallAnswersWhenItEnds,
            cancellingARunItsCallerHoldsStopsItAtItsNextStep, aCancellationReachesAStepWithNothingToWriteBeforeIt,
            aWorkersFirstClaimTakesNoRunItsCallerJustBegan,
            aConsumedMessageStillHeldIsSettledAsTheRunSettles, aRunDoesNotSettleBeforeTheMessagesItConsumed,
            aRunIsReadListedAndCancelledAsAnOperatorDoes,
            aFailedRunCompensatesItsFinishedStepsInReverse, aStepAnsweredFromTheJournalIsStillCompensated,
            aRollbackTakenOverRunsOnlyTheCompensationsNotWritten, cancellingARunCompensatesIt,
            aFailingCompensationSettlesTheRunFailedNamingIt, aForkCopiesTheStepsBeforeItsPositionAndRunsTheRest,
        ]
    }

    /// A registry of `workflows`.
    static func registered<each Input, each Output>(
        _ workflows: repeat Workflow<each Input, each Output>
    ) -> WorkflowRegistry {
        var registry = WorkflowRegistry()
        repeat registry.register(each workflows)
        return registry
    }

    /// The workflow "square": its step "square" records "square <n>" in `effects` and answers
    /// n × n.
    static func squaring(_ effects: WorkflowEffects) -> Workflow<Int, Int> {
        Workflow("square") { (context, number: Int) -> Int in
            try await context.step("square") { _ in
                effects.record("square \(number)")
                return number * number
            }
        }
    }

    /// The workflow `named`: its step "greet" records "greet <name>" in `effects` and answers
    /// "hello <name>".
    static func greeting(_ effects: WorkflowEffects, named: String = "greet") -> Workflow<String, String> {
        Workflow(named) { (context, name: String) -> String in
            try await context.step("greet") { _ in
                effects.record("greet \(name)")
                return "hello \(name)"
            }
        }
    }

    /// The workflow "fail": it records "fail" in `effects`, and throws.
    static func failing(_ effects: WorkflowEffects) -> Workflow<Int, Int> {
        Workflow("fail") { (_, _: Int) -> Int in
            effects.record("fail")
            throw WorkflowEffects.Failure()
        }
    }

    /// A worker process: its own identity, on the journal's clock, with `registry`.
    static func worker(
        _ journal: any CommandJournalManagement, _ clock: ManualClock, _ registry: WorkflowRegistry, owner: String
    ) -> Workflows {
        Workflows(
            registry, queue: CommandQueue("workflows", journal: journal),
            invoker: JournaledInvoker(journal: journal, owner: owner, leaseDuration: .seconds(30), clock: clock),
            pollInterval: .seconds(30))
    }

    static func expect(_ condition: Bool, _ check: String, _ detail: @autoclosure () -> String) throws {
        if !condition { throw WorkflowConformanceFailure(check: check, detail: detail()) }
    }

    /// Fails `check` unless `thrown` says the run `key` failed with the workflow "fail"'s error
    /// ("boom"); `what` names what threw it.
    static func expectFailedWithBoom(_ thrown: (any Error)?, _ key: String, _ check: String, _ what: String) throws {
        guard case WorkflowError.failed(key, let reason)? = thrown as? WorkflowError, reason.contains("boom") else {
            throw WorkflowConformanceFailure(check: check, detail: "\(what) threw \(String(describing: thrown))")
        }
    }

    /// The workflow `name`: its step "before" records "before" in `effects`, it sleeps as
    /// `sleep` says, and its step "after" records "after" and answers `answer` of its input.
    static func sleeper<Input: Codable & Sendable>(
        _ name: String, _ effects: WorkflowEffects, answer: @escaping @Sendable (Input) -> String,
        sleep: @escaping @Sendable (WorkflowContext, Input) async throws -> Void
    ) -> Workflow<Input, String> {
        Workflow(name) { (context, input: Input) -> String in
            try await context.step("before") { _ in effects.record("before") }
            try await sleep(context, input)
            return try await context.step("after") { _ in
                effects.record("after")
                return answer(input)
            }
        }
    }

    /// The workflow `name` as a release before a deploy has it: its step "reserve" records
    /// "reserve <order>" in `effects`, it sleeps for `duration`, and its step "ship" answers
    /// "shipped <order>".
    static func shipsAfterASleep(
        _ name: String, _ effects: WorkflowEffects, sleeping duration: Duration
    ) -> Workflow<Int, String> {
        Workflow(name) { (context, order: Int) -> String in
            try await context.step("reserve") { _ in effects.record("reserve \(order)") }
            try await context.sleep(for: duration)
            return try await context.step("ship") { _ in "shipped \(order)" }
        }
    }

    /// Starts the ``sleeper(_:_:answer:sleep:)`` `workflow` as `key` on a worker ("process-1"),
    /// which runs it into its sleep, `deadline` from now; checks that another process
    /// ("process-2") finds nothing due a second before the deadline and takes the run up at it,
    /// and that each step ran once. Answers the run's output and that other process's worker.
    static func expectSleepSurvivesARestart<Input: Codable & Sendable>(
        _ workflow: Workflow<Input, String>, key: String, input: Input, endingIn deadline: Duration,
        _ journal: any CommandJournalManagement, _ clock: ManualClock, _ effects: WorkflowEffects, _ check: String
    ) async throws -> (answer: String, restarted: Workflows) {
        let registry = registered(workflow)
        let first = worker(journal, clock, registry, owner: "process-1")
        let handle = try await first.start(workflow, key: key, input: input)
        try await first.runDue()
        let waiting = try await journal.record(forKey: key)
        try expect(
            waiting?.status == .pending && effects.log == ["before"], check,
            "after the sleep began: \(String(describing: waiting)), effects \(effects.log)")
        await clock.advance(by: deadline - .seconds(1))
        let restarted = worker(journal, clock, registry, owner: "process-2")
        let early = try await restarted.runDue()
        try expect(
            early == 0 && effects.count("after") == 0, check, "a second early, the run was taken: \(effects.log)")
        await clock.advance(by: .seconds(1))
        try expect(try await restarted.runDue() == 1, check, "at the deadline, the run was not taken up")
        let answer = try await handle.result()
        try expect(effects.log == ["before", "after"], check, "the steps ran \(effects.log)")
        return (answer, restarted)
    }

    /// The error `body` throws, or `nil`.
    static func error(of body: () async throws -> Void) async -> (any Error)? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }
}

/// The workflow rule a journal broke: the check, and what happened.
public struct WorkflowConformanceFailure: Error, CustomStringConvertible, Sendable {
    /// The rule checked.
    public let check: String
    /// What the journal did.
    public let detail: String

    /// "<check>: <detail>".
    public var description: String { "\(check): \(detail)" }
}

/// What the workflows of the checks did, in order.
final class WorkflowEffects: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "boom" }
    }

    private let effects = LockedValue<[String]>([])

    var log: [String] { effects.withLock { $0 } }

    func record(_ effect: String) { effects.withLock { $0.append(effect) } }

    func count(_ effect: String) -> Int { log.count { $0 == effect } }
}
