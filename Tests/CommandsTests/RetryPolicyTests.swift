import Commands
import Testing

struct RetryPolicyTests {
    struct Boom: Error {}

    @Test func backoffGrowsExponentiallyUpToItsCap() {
        let policy = RetryPolicy(
            maxAttempts: 10, initialDelay: .seconds(1), multiplier: 2, maximumDelay: .seconds(5), jitter: 0)
        let delays = (1...5).map { policy.backoff(after: $0, of: "k") }
        #expect(delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
    }

    @Test func jitterIsDeterministicAndTakesAtMostItsFraction() {
        let policy = RetryPolicy(maxAttempts: 10, initialDelay: .seconds(10), multiplier: 1, jitter: 0.5, seed: 42)
        let first = (1...20).map { policy.backoff(after: 1, of: "order-\($0)") }
        let again = (1...20).map { policy.backoff(after: 1, of: "order-\($0)") }
        #expect(first == again, "the same seed, key and attempt give the same delay")
        #expect(first.allSatisfy { $0 >= .seconds(5) && $0 <= .seconds(10) })
        #expect(Set(first).count > 10, "records failing together spread out: \(first)")
        let otherSeed = RetryPolicy(maxAttempts: 10, initialDelay: .seconds(10), multiplier: 1, jitter: 0.5, seed: 7)
        #expect((1...20).map { otherSeed.backoff(after: 1, of: "order-\($0)") } != first)
    }

    @Test func attemptsEndAtTheMaximumAndForErrorsNotRetried() {
        let policy = RetryPolicy(maxAttempts: 3, initialDelay: .seconds(1), jitter: 0) { !($0 is Boom) }
        struct Timeout: Error {}
        #expect(policy.delay(after: 1, of: "k", failedWith: Timeout()) == .seconds(1))
        #expect(policy.delay(after: 2, of: "k", failedWith: Timeout()) == .seconds(2))
        #expect(policy.delay(after: 3, of: "k", failedWith: Timeout()) == nil, "three attempts in all")
        #expect(policy.delay(after: 1, of: "k", failedWith: Boom()) == nil, "an error the policy refuses")
    }

    @Test func retryAfterIsHonouredWhateverThePolicy() {
        let error = RetryAfter(.seconds(30), reason: "rate limited")
        #expect(RetryPolicy.never.delay(after: 1, of: "k", failedWith: error) == .seconds(30))
        #expect(RetryPolicy(maxAttempts: 2).delay(after: 9, of: "k", failedWith: error) == .seconds(30))
        #expect("\(error)" == "retry after 30.0 seconds: rate limited")
        #expect("\(RetryAfter(.seconds(1)))" == "retry after 1.0 seconds")
    }

    @Test func outOfRangeSettingsAreBroughtIntoRange() {
        let policy = RetryPolicy(
            maxAttempts: 0, initialDelay: .seconds(-1), multiplier: .nan, maximumDelay: .seconds(-5), jitter: 7)
        #expect(policy.maxAttempts == 1 && policy.multiplier == 1 && policy.jitter == 1)
        #expect(policy.initialDelay == .zero && policy.maximumDelay == .zero)
        #expect(RetryPolicy(maxAttempts: 3, jitter: -.infinity).jitter == 0)
        let huge = RetryPolicy(
            maxAttempts: 100, initialDelay: .seconds(1), multiplier: 1e300, maximumDelay: .seconds(60))
        #expect(huge.backoff(after: 90, of: "k") <= .seconds(60))
    }

    @Test func theRegistryKeepsAPolicyPerKindAndItsStepsCarryIt() throws {
        var registry = CommandRegistry()
        registry.register("test.note", arguments: String.self) { _ in ClosureCommand("note") {} }
        #expect(registry.retryPolicy(forKind: "test.note") == nil)
        registry.setRetryPolicy(RetryPolicy(maxAttempts: 4), forKind: "test.note")
        #expect(registry.retryPolicy(forKind: "test.note")?.maxAttempts == 4)
        let step = try registry.step("test.note", arguments: "hi")
        #expect(step.retryPolicy.maxAttempts == 4)
        #expect(step.retrying(.never).retryPolicy.maxAttempts == 1)
    }
}
