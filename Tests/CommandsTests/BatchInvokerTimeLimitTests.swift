import BehaviorKitTesting
import Commands
import Testing

struct BatchInvokerTimeLimitTests {
    /// The limit runs from when the batch's first command was queued: a timer task that starts
    /// late must not stretch it.
    @Test func timeLimitCountsFromTheFirstQueuedCommand() async {
        let clock = ManualClock()
        let trace = Trace()
        let invoker = BatchInvoker(batchSize: 5, timeLimit: .seconds(2), clock: clock)
        invoker.submit(Step("a", trace))
        await clock.advance(by: .seconds(2))  // perhaps before the timer task has even started
        for _ in 0..<100_000 where invoker.pendingCount > 0 { await Task.yield() }
        await invoker.idle()
        #expect(invoker.pendingCount == 0)
        #expect(trace.lines == ["do a"])
    }

    @Test func batchWaitsWhileTheLimitHasNotPassed() async {
        let clock = ManualClock()
        let trace = Trace()
        let invoker = BatchInvoker(batchSize: 5, timeLimit: .seconds(2), clock: clock)
        invoker.submit(Step("a", trace))
        await clock.waitForSleepers()
        await clock.advance(by: .milliseconds(1_999))
        #expect(invoker.pendingCount == 1)
        #expect(trace.lines.isEmpty)
    }
}
