import BehaviorKitSync
import Commands
import Testing

/// Work that notices cancellation, as a network call does: it throws `CancellationError` when
/// its task is cancelled.
func cancellableCall() async throws {
    try Task.checkCancellation()
    await Task.yield()
    try Task.checkCancellation()
}

/// Transactions whose task is cancelled: the compensations still run, shielded from it.
struct TransactionCancellationTests {
    let trace = Trace()
    let gate = AsyncGate()

    /// Reserves (its undo, the release, awaits cancellable work), then charges after the gate:
    /// cancelled while waiting, the charge throws `CancellationError`.
    var steps: [any Command] {
        [
            ClosureCommand("reserve") { [trace] in
                trace("reserve")
            } undo: { [trace] in
                try await cancellableCall()
                trace("release")
            },
            ClosureCommand("charge") { [trace, gate] in
                await gate.wait()
                try await cancellableCall()
                trace("charge")
            } undo: { [trace] in
                trace("refund")
            },
        ]
    }

    @Test func aCancelledTransactionStillCompensates() async throws {
        let order = Transaction("order", steps: steps)
        let task = Task { try await order.run() }
        await gate.waitForWaiter()
        task.cancel()
        gate.open()
        let result = await task.result
        #expect(trace.lines == ["reserve", "release"])
        let error = try #require(result.failure as? TransactionError)
        #expect(error.compensationFailures.isEmpty)
        #expect(error.isCancelled)
        #expect(error.compensatedSteps == [.init(index: 0, name: "reserve")])
        #expect(error.failedStep == .init(index: 1, name: "charge"))
        #expect(error.error is CancellationError)
        #expect("\(error)" == "transaction 'order' was cancelled at step 2 'charge'; compensated step 1 'reserve'")
    }

    @Test func aTransactionThatFailsUncancelledSaysSoAndListsWhatWasUndone() async throws {
        let steps = [Step("a", trace), Step("b", trace), Step("c", trace, failsExecute: true)]
        let error = await #expect(throws: TransactionError.self) { try await Transaction("t", steps: steps).run() }
        #expect(error?.isCancelled == false)
        #expect(error?.compensatedSteps == [.init(index: 1, name: "b"), .init(index: 0, name: "a")])
        #expect(error?.description == "transaction 't' failed at step 3 'c': c failed")
    }

    @Test func aCancelledTransactionThatUndidNothingSaysSo() async throws {
        let task = Task {
            try await Transaction("t", steps: [ClosureCommand("wait") { try await cancellableCall() }]).run()
        }
        task.cancel()
        let error = try #require(await task.result.failure as? TransactionError)
        #expect("\(error)" == "transaction 't' was cancelled at step 1 'wait'; compensated nothing")
    }

    @Test func aCancelledScopedTransactionStillCompensates() async throws {
        let steps = self.steps
        let task = Task {
            try await transaction("order") { step in
                try await step(steps[0])
                try await step(steps[1])
            }
        }
        await gate.waitForWaiter()
        task.cancel()
        gate.open()
        let result = await task.result
        #expect(trace.lines == ["reserve", "release"])
        let error = try #require(result.failure as? TransactionError)
        #expect(error.compensationFailures.isEmpty)
        #expect(error.isCancelled)
        #expect(error.compensatedSteps == [.init(index: 0, name: "reserve")])
    }

    @Test func errorsCompareEqualWhenTheySayTheSame() async throws {
        let steps = [Step("a", trace, failsUndo: true), Step("b", trace, failsExecute: true)]
        await #expect(
            throws: TransactionError(
                transaction: "t", phase: .execute, failedStep: .init(index: 1, name: "b"),
                error: TestFailure("b failed"),
                compensationFailures: [.init(step: .init(index: 0, name: "a"), error: TestFailure("undo a failed"))])
        ) {
            try await Transaction("t", steps: steps).run()
        }
        let one = TransactionError(transaction: "t", phase: .execute, failedStep: nil, error: CancellationError())
        #expect(one == TransactionError(transaction: "t", phase: .execute, failedStep: nil, error: CancellationError()))
        #expect(one != TransactionError(transaction: "t", phase: .execute, failedStep: nil, error: TestFailure("x")))
        #expect(one != TransactionError(transaction: "t", phase: .undo, failedStep: nil, error: CancellationError()))
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
