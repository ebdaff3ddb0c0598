import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Testing

/// A command whose undo fails a given number of times before it succeeds.
final class FlakyUndo: Command, Sendable {
    let name: String
    let trace: Trace
    private let failuresLeft: LockedValue<Int>

    init(_ name: String, _ trace: Trace, failures: Int) {
        self.name = name
        self.trace = trace
        self.failuresLeft = LockedValue(failures)
    }

    func execute() async throws { trace("do \(name)") }

    func undo() async throws {
        let fails = failuresLeft.withLock { left -> Bool in
            defer { left -= 1 }
            return left > 0
        }
        if fails { throw TestFailure("undo \(name) failed") }
        trace("undo \(name)")
    }
}

/// Records the events a transaction tells, as lines.
final class EventLog: Sendable {
    private let storage = LockedValue<[String]>([])
    var lines: [String] { storage.withLock { $0 } }

    var observer: @Sendable (TransactionEvent) -> Void {
        { [storage] event in
            let line: String? =
                switch event {
                case .compensated(let index, _): "compensated \(index)"
                case .compensationRetried(let index, _, let attempt, let error):
                    "retry \(index) #\(attempt) after \(error)"
                case .compensationFailed(let index, _, let error): "failed \(index): \(error)"
                default: nil
                }
            if let line { storage.withLock { $0.append(line) } }
        }
    }
}

struct CompensationPolicyTests {
    let trace = Trace()
    let clock = ManualClock()
    let events = EventLog()

    @Test func aFailedCompensationIsRetriedAfterItsBackoffOnTheClock() async throws {
        let policy = CompensationPolicy(retries: 2, backoff: .constant(.seconds(1)), clock: clock)
        let steps: [any Command] = [FlakyUndo("a", trace, failures: 2), Step("b", trace, failsExecute: true)]
        let run = Task { [events] in
            try await Transaction("t", steps: steps, compensation: policy, observer: events.observer).run()
        }
        for _ in 0..<2 {
            await clock.waitForSleepers()
            #expect(!trace.lines.contains("undo a"))
            await clock.advance(by: .seconds(1))
        }
        let error = try #require(await run.result.failure as? TransactionError)
        #expect(error.compensatedSteps == [.init(index: 0, name: "a")])
        #expect(error.compensationFailures.isEmpty)
        #expect(trace.lines == ["do a", "undo a"])
        #expect(
            events.lines == ["retry 0 #1 after undo a failed", "retry 0 #2 after undo a failed", "compensated 0"])
    }

    @Test func aCompensationThatFailsEveryRetryIsReportedWithItsLastError() async throws {
        let policy = CompensationPolicy(retries: 1, clock: clock)
        let steps: [any Command] = [FlakyUndo("a", trace, failures: 5), Step("b", trace, failsExecute: true)]
        let error = await #expect(throws: TransactionError.self) {
            try await Transaction("t", steps: steps, compensation: policy, observer: events.observer).run()
        }
        #expect(
            error?.compensationFailures == [
                .init(step: .init(index: 0, name: "a"), error: TestFailure("undo a failed"))
            ])
        #expect(events.lines == ["retry 0 #1 after undo a failed", "failed 0: undo a failed"])
    }

    @Test func byDefaultAFailedCompensationDoesNotStopTheOthers() async throws {
        let steps = [Step("a", trace), Step("b", trace, failsUndo: true), Step("c", trace, failsExecute: true)]
        let error = await #expect(throws: TransactionError.self) { try await Transaction("t", steps: steps).run() }
        #expect(trace.lines == ["do a", "do b", "undo a"])
        #expect(error?.compensatedSteps == [.init(index: 0, name: "a")])
    }

    @Test func stopAtFirstFailureLeavesTheOthersAndSaysWhy() async throws {
        let policy = CompensationPolicy(failureMode: .stopAtFirstFailure)
        let steps = [Step("a", trace), Step("b", trace, failsUndo: true), Step("c", trace, failsExecute: true)]
        let error = await #expect(throws: TransactionError.self) {
            try await Transaction("t", steps: steps, compensation: policy).run()
        }
        #expect(trace.lines == ["do a", "do b"])
        #expect(error?.compensatedSteps == [])
        let b = TransactionError.Step(index: 1, name: "b")
        #expect(
            error?.compensationFailures == [
                .init(step: b, error: TestFailure("undo b failed")),
                .init(step: .init(index: 0, name: "a"), error: CompensationInterruption.stoppedAtFailure(b)),
            ])
        #expect(
            error?.description
                == "transaction 't' failed at step 3 'c': c failed; undo failed for step 2 'b': undo b failed; "
                + "step 1 'a': not undone: compensation stopped when step 2 'b' could not be undone")
    }

    @Test func theDeadlineEndsARollbackThatHangs() async throws {
        let gate = AsyncGate()
        let policy = CompensationPolicy(deadline: .seconds(5), clock: clock)
        let hangs = ClosureCommand("hangs") { [trace] in
            trace("do hangs")
        } undo: { [trace] in
            await gate.wait()
            trace("undo hangs")
        }
        let steps: [any Command] = [Step("a", trace), hangs, Step("c", trace, failsExecute: true)]
        let run = Task { [events] in
            try await Transaction("t", steps: steps, compensation: policy, observer: events.observer).run()
        }
        await gate.waitForWaiter()
        await clock.waitForSleepers()
        await clock.advance(by: .seconds(5))
        let error = try #require(await run.result.failure as? TransactionError)
        let passed = CompensationInterruption.deadlinePassed(.seconds(5))
        #expect(
            error.compensationFailures == [
                .init(step: .init(index: 1, name: "hangs"), error: passed),
                .init(step: .init(index: 0, name: "a"), error: passed),
            ])
        #expect(error.compensatedSteps.isEmpty)
        gate.open()  // the hung undo ends late: it is not reported, and nothing after it runs
        for _ in 0..<50 { await Task.yield() }
        #expect(!trace.lines.contains("undo a"))
        #expect(events.lines.isEmpty)
    }

    /// The manual clock never moves here: the rollback answers without waiting for the deadline.
    @Test func aRollbackWithinItsDeadlineAnswersAtOnce() async throws {
        let policy = CompensationPolicy(deadline: .seconds(5), clock: clock)
        let steps = [Step("a", trace), Step("b", trace, failsExecute: true)]
        let error = await #expect(throws: TransactionError.self) {
            try await Transaction("t", steps: steps, compensation: policy).run()
        }
        #expect(error?.compensatedSteps == [.init(index: 0, name: "a")])
        #expect(error?.compensationFailures.isEmpty == true)
    }

    @Test func theDeadlineHoldsForACancelledTransactionToo() async throws {
        let gate = AsyncGate()
        let policy = CompensationPolicy(deadline: .seconds(1), clock: clock)
        let hangs = ClosureCommand("hangs") {
        } undo: {
            await gate.wait()
        }
        let steps: [any Command] = [hangs, ClosureCommand("wait") { try await cancellableCall() }]
        let run = Task { try await Transaction("t", steps: steps, compensation: policy).run() }
        run.cancel()
        await gate.waitForWaiter()
        await clock.waitForSleepers()
        await clock.advance(by: .seconds(1))
        let error = try #require(await run.result.failure as? TransactionError)
        #expect(error.isCancelled)
        #expect(
            "\(error)"
                == "transaction 't' was cancelled at step 2 'wait'; compensated nothing; undo failed for step 1 'hangs': "
                + "not undone: the compensation deadline of 1.0 seconds passed")
        gate.open()
    }

    @Test func theScopedFormTakesAPolicy() async throws {
        let policy = CompensationPolicy(retries: 1, clock: clock)
        let flaky = FlakyUndo("a", trace, failures: 1)
        let error = await #expect(throws: TransactionError.self) {
            try await transaction("t", compensation: policy) { step in
                try await step(flaky)
                throw TestFailure("out of stock")
            }
        }
        #expect(error?.compensatedSteps == [.init(index: 0, name: "a")])
    }

    @Test(arguments: [
        (CompensationBackoff.none, [0, 0, 0]),
        (.constant(.milliseconds(250)), [250, 250, 250]),
        (.exponential(initial: .milliseconds(100), maximum: .milliseconds(350)), [100, 200, 350, 350]),
        (.exponential(initial: .milliseconds(10), multiplier: 10, maximum: .seconds(1)), [10, 100, 1_000, 1_000]),
        (.exponential(initial: .seconds(1), multiplier: .max, maximum: .seconds(3)), [1_000, 3_000, 3_000]),
    ])
    func backoffDelaysGrowUpToTheirMaximum(backoff: CompensationBackoff, milliseconds: [Int]) {
        let delays = (1...milliseconds.count).map { backoff.delay(beforeRetry: $0) }
        #expect(delays == milliseconds.map { .milliseconds($0) })
        #expect(backoff.delay(beforeRetry: .max) == backoff.maximum)
    }

    @Test func negativeSettingsCountAsZero() {
        let policy = CompensationPolicy(
            retries: -3, backoff: .init(initial: .seconds(-1), multiplier: -2, maximum: .zero))
        #expect(policy.retries == 0)
        #expect(policy.backoff == .none)
    }
}
