import BehaviorKitSync
import Testing

/// The one backoff every growing wait uses (retries, compensations, reconnections, conflicts).
struct BackoffTests {
    @Test func eachWaitIsTheOneBeforeTimesTheMultiplierUpToTheMaximum() {
        let backoff = Backoff(initial: .milliseconds(100), multiplier: 2, maximum: .milliseconds(500))
        #expect((1...5).map { backoff.delay(after: $0) } == [100, 200, 400, 500, 500].map { .milliseconds($0) })
        #expect(backoff.delay(after: 0) == .milliseconds(100), "an attempt before the first waits the first wait")
    }

    @Test func anyAttemptEndsWithoutOverflow() {
        #expect(Backoff(initial: .milliseconds(1), maximum: .seconds(60)).delay(after: .max) == .seconds(60))
        #expect(Backoff(initial: .zero, maximum: .seconds(60)).delay(after: .max) == .zero)
        #expect(Backoff(initial: .seconds(1), multiplier: 1, maximum: .seconds(60)).delay(after: .max) == .seconds(1))
        #expect(Backoff(initial: .seconds(1), multiplier: .nan, maximum: .seconds(60)).delay(after: 3) == .seconds(1))
        #expect(Backoff(initial: .seconds(5), maximum: .seconds(2)).delay(after: 1) == .seconds(2))
    }
}
