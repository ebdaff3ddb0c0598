import BehaviorKitTesting
import Commands
import Testing

struct SerialInvokerTests {
    let trace = Trace()

    @Test func runsCommandsInSubmissionOrderAndKeepsOutcomes() async throws {
        let invoker = SerialInvoker()
        invoker.submit(Step("a", trace))
        invoker.submit(Step("b", trace, failsExecute: true))
        invoker.submit(contentsOf: [Step("c", trace), Step("d", trace)])
        await invoker.idle()
        #expect(trace.lines == ["do a", "do c", "do d"])
        #expect(
            invoker.outcomes.map(\.description) == ["finished: a", "failed: b: b failed", "finished: c", "finished: d"])
        #expect(invoker.finished.map(\.name) == ["a", "c", "d"])
        #expect(invoker.failed.map(\.command.name) == ["b"])
        #expect(invoker.finishedCount == 3 && invoker.failedCount == 1 && invoker.pendingCount == 0)
    }

    @Test func performWaitsAndRethrows() async throws {
        let invoker = SerialInvoker()
        invoker.submit(Step("a", trace))
        try await invoker.perform(Step("b", trace))
        #expect(trace.lines == ["do a", "do b"])
        await #expect(throws: TestFailure("c failed")) {
            try await invoker.perform(Step("c", trace, failsExecute: true))
        }
        #expect(invoker.failedCount == 1)
    }

    @Test func runsOneAtATime() async throws {
        let invoker = SerialInvoker()
        let gate = AsyncGate()
        invoker.submit(
            ClosureCommand("slow") {
                await gate.wait(); trace("slow")
            })
        invoker.submit(Step("fast", trace))
        await gate.waitForWaiter()
        #expect(invoker.pendingCount == 2)
        #expect(trace.lines.isEmpty)
        gate.open()
        await invoker.idle()
        #expect(trace.lines == ["slow", "do fast"])
    }

    @Test func performOnAnIdleInvokerRunsAtOnceAndLaterSubmissionsWait() async throws {
        let invoker = SerialInvoker()
        let gate = AsyncGate()
        let slow = ClosureCommand("slow") {
            trace("slow starts")
            await gate.wait()
            trace("slow ends")
        }
        let performing = Task { try await invoker.perform(slow) }
        await gate.waitForWaiter()  // slow runs on the performing task, the invoker is busy
        invoker.submit(Step("queued", trace))
        #expect(invoker.pendingCount == 2)
        for _ in 0..<50 { await Task.yield() }
        #expect(trace.lines == ["slow starts"])
        gate.open()
        try await performing.value
        await invoker.idle()
        #expect(trace.lines == ["slow starts", "slow ends", "do queued"])
        #expect(invoker.outcomes.map(\.command.name) == ["slow", "queued"])
    }

    @Test func keepsTheLastOutcomesButCountsThemAll() async throws {
        let invoker = SerialInvoker(keepingOutcomes: 3)
        for index in 0..<10 { invoker.submit(Step("\(index)", trace)) }
        await invoker.idle()
        #expect(invoker.outcomes.map(\.command.name) == ["7", "8", "9"])
        #expect(invoker.finishedCount == 10)
    }

    @Test func idleReturnsAtOnceWhenNothingRuns() async {
        await SerialInvoker().idle()
    }
}

struct BatchInvokerTests {
    let trace = Trace()

    @Test func aFullBatchRuns() async throws {
        let invoker = BatchInvoker(batchSize: 3, clock: ManualClock())
        invoker.submit(Step("a", trace))
        invoker.submit(Step("b", trace))
        await invoker.idle()
        #expect(trace.lines.isEmpty)
        #expect(invoker.pendingCount == 2)
        invoker.submit(Step("c", trace))
        invoker.submit(Step("d", trace))
        await invoker.idle()
        #expect(trace.lines == ["do a", "do b", "do c"])
        #expect(invoker.pendingCount == 1)
        #expect(invoker.finishedCount == 3)
    }

    @Test func theTimeLimitStartsASmallBatch() async throws {
        let clock = ManualClock()
        let invoker = BatchInvoker(batchSize: 5, timeLimit: .seconds(2), clock: clock)
        invoker.submit(Step("a", trace))
        await clock.waitForSleepers()
        await clock.advance(by: .seconds(1))
        invoker.submit(Step("b", trace))
        await invoker.idle()
        #expect(trace.lines.isEmpty)
        await clock.advance(by: .seconds(1))
        while invoker.pendingCount > 0 { await Task.yield() }
        await invoker.idle()
        #expect(trace.lines == ["do a", "do b"])
        invoker.submit(Step("c", trace))
        await clock.waitForSleepers()
        await clock.advance(by: .seconds(2))
        while invoker.pendingCount > 0 { await Task.yield() }
        await invoker.idle()
        #expect(trace.lines == ["do a", "do b", "do c"])
    }

    @Test func aFullBatchCancelsItsTimer() async throws {
        let clock = ManualClock()
        let invoker = BatchInvoker(batchSize: 2, timeLimit: .seconds(2), clock: clock)
        invoker.submit(Step("a", trace))
        await clock.waitForSleepers()
        invoker.submit(Step("b", trace))
        await invoker.idle()
        #expect(clock.sleeperCount == 0)
        invoker.submit(Step("c", trace))
        await clock.advance(by: .seconds(1))
        #expect(invoker.pendingCount == 1)
        #expect(trace.lines == ["do a", "do b"])
    }

    @Test func flushRunsWhatIsPending() async throws {
        let invoker = BatchInvoker(batchSize: 10)
        invoker.submit(Step("a", trace))
        invoker.submit(Step("b", trace, failsExecute: true))
        await invoker.flush()
        #expect(trace.lines == ["do a"])
        #expect(invoker.finished.map(\.name) == ["a"])
        #expect(invoker.failed.map(\.command.name) == ["b"])
        await invoker.flush()
        #expect(invoker.outcomes.count == 2)
    }

    @Test func aReleasedInvokerStillRunsItsPendingBatch() async throws {
        let counter = Counter()
        var invoker: BatchInvoker<ManualClock>? = BatchInvoker(batchSize: 10, clock: ManualClock())
        invoker?.submit(Add(counter: counter, amount: 1))
        invoker?.submit(Add(counter: counter, amount: 2))
        invoker = nil
        while counter.value < 3 { await Task.yield() }
        #expect(counter.value == 3)
    }

    @Test func aBatchSizeBelowOneCountsAsOne() async {
        let invoker = BatchInvoker(batchSize: 0)
        #expect(invoker.batchSize == 1)
        invoker.submit(Step("a", trace))
        await invoker.idle()
        #expect(trace.lines == ["do a"])
    }
}
