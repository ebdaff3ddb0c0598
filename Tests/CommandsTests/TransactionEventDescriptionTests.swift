import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Testing

/// What `"\(event)"` prints for each `TransactionEvent`: one readable line, the step counted from
/// 1 and named, never a command's or a closure's internals (issue 11).
struct TransactionEventDescriptionTests {
    let trace = Trace()

    /// Every event of a run, as `"\(event)"` prints it.
    final class Printed: Sendable {
        private let storage = LockedValue<[String]>([])
        var lines: [String] { storage.withLock { $0 } }
        var observer: @Sendable (TransactionEvent) -> Void {
            { [storage] event in storage.withLock { $0.append("\(event)") } }
        }
    }

    @Test func aRolledBackTransactionPrintsOneLinePerEvent() async throws {
        let printed = Printed()
        let steps = [Step("reserve", trace), Step("charge", trace, failsExecute: true)]
        await #expect(throws: TransactionError.self) {
            try await Transaction("checkout", steps: steps, observer: printed.observer).run()
        }
        #expect(
            printed.lines == [
                "transaction 'checkout' started",
                "step 1 'reserve' finished",
                "step 2 'charge' failed: charge failed",
                "step 1 'reserve' compensated",
                "rolled back: transaction 'checkout' failed at step 2 'charge': charge failed",
            ])
    }

    @Test func aFinishedTransactionSaysSo() async throws {
        let printed = Printed()
        try await Transaction("ship", steps: [Step("pack", trace)], observer: printed.observer).run()
        #expect(
            printed.lines == ["transaction 'ship' started", "step 1 'pack' finished", "transaction 'ship' finished"])
    }

    @Test func retriedAndFailedCompensationsNameTheStepTheErrorAndTheRetry() async throws {
        let printed = Printed()
        let policy = CompensationPolicy(retries: 1, clock: ImmediateClock())
        let steps: [any Command] = [
            FlakyUndo("reserve", trace, failures: 5), Step("charge", trace, failsExecute: true),
        ]
        await #expect(throws: TransactionError.self) {
            try await Transaction("checkout", steps: steps, compensation: policy, observer: printed.observer).run()
        }
        #expect(printed.lines.contains("undoing step 1 'reserve' failed: undo reserve failed; retry 1 follows"))
        #expect(printed.lines.contains("undoing step 1 'reserve' failed: undo reserve failed"))
    }

    @Test func theBodyOfAScopedTransactionFailingBetweenStepsIsNamedSo() async throws {
        let printed = Printed()
        await #expect(throws: TransactionError.self) {
            try await transaction("checkout", observer: printed.observer) { step in
                try await step(Step("reserve", trace))
                throw TestFailure("out of stock")
            }
        }
        #expect(printed.lines.contains("the transaction's body failed: out of stock"))
    }

    @Test func noLineShowsACommandsInternals() async throws {
        let printed = Printed()
        let closure = ClosureCommand("notify") {
        } undo: {
        }
        try await Transaction("t", steps: [closure], observer: printed.observer).run()
        #expect(printed.lines == ["transaction 't' started", "step 1 'notify' finished", "transaction 't' finished"])
        #expect(!printed.lines.joined().contains("Function"))
    }
}
