import BehaviorKitSync
import Commands
import Testing

struct TransactionTests {
    @Test func runsEveryStepInOrder() async throws {
        let trace = Trace()
        try await Transaction("t", steps: [Step("a", trace), Step("b", trace), Step("c", trace)]).run()
        #expect(trace.lines == ["do a", "do b", "do c"])
    }

    @Test func failureCompensatesTheCompletedStepsInReverse() async throws {
        let trace = Trace()
        let order = Transaction(
            "order",
            steps: [Step("a", trace), Step("b", trace), Step("c", trace, failsExecute: true), Step("d", trace)])
        let error = await #expect(throws: TransactionError.self) { try await order.run() }
        #expect(trace.lines == ["do a", "do b", "undo b", "undo a"])
        #expect(error?.transaction == "order")
        #expect(error?.phase == .execute)
        #expect(error?.failedStep == TransactionError.Step(index: 2, name: "c"))
        #expect((error?.error as? TestFailure) == TestFailure("c failed"))
        #expect(error?.compensationFailures.isEmpty == true)
        #expect(error?.description == "transaction 'order' failed at step 3 'c': c failed")
    }

    @Test func failingCompensationsAreAllReportedAndDoNotStopTheOthers() async throws {
        let trace = Trace()
        let steps = [
            Step("a", trace, failsUndo: true), Step("b", trace), Step("c", trace, failsUndo: true),
            Step("d", trace, failsExecute: true),
        ]
        let error = await #expect(throws: TransactionError.self) {
            try await Transaction("t", steps: steps).run()
        }
        #expect(trace.lines == ["do a", "do b", "do c", "undo b"])
        #expect(error?.compensationFailures.map(\.step) == [.init(index: 2, name: "c"), .init(index: 0, name: "a")])
        #expect(
            error?.description
                == "transaction 't' failed at step 4 'd': d failed; undo failed for step 3 'c': undo c failed; step 1 'a': undo a failed"
        )
    }

    @Test func stepsThatCannotBeUndoneAreSkippedWhenCompensating() async throws {
        let trace = Trace()
        let steps = [Step("log", trace, canUndo: false), Step("save", trace), Step("send", trace, failsExecute: true)]
        await #expect(throws: TransactionError.self) { try await Transaction("t", steps: steps).run() }
        #expect(trace.lines == ["do log", "do save", "undo save"])
    }

    @Test func undoingACompletedTransactionUndoesItsStepsInReverse() async throws {
        let trace = Trace()
        let transaction = Transaction("t", steps: [Step("a", trace), Step("b", trace), Step("c", trace)])
        try await transaction.execute()
        trace.reset()
        try await transaction.undo()
        #expect(trace.lines == ["undo c", "undo b", "undo a"])
    }

    @Test func aFailedUndoRedoesTheStepsAlreadyUndone() async throws {
        let trace = Trace()
        let transaction = Transaction(
            "t", steps: [Step("a", trace, failsUndo: true), Step("b", trace), Step("c", trace)])
        try await transaction.execute()
        trace.reset()
        let error = await #expect(throws: TransactionError.self) { try await transaction.undo() }
        #expect(trace.lines == ["undo c", "undo b", "do b", "do c"])
        #expect(error?.phase == .undo)
        #expect(error?.failedStep == .init(index: 0, name: "a"))
        #expect(error?.description == "undoing transaction 't' failed at step 1 'a': undo a failed")
    }

    @Test func observerHearsEveryEventInOrder() async throws {
        let events = LockedValue<[String]>([])
        let trace = Trace()
        let observer: @Sendable (TransactionEvent) -> Void = { event in
            let line: String
            switch event {
            case .started(let name): line = "started \(name)"
            case .stepFinished(let index, let command): line = "finished \(index) \(command.name)"
            case .failed(let step, let error): line = "failed \(step?.name ?? "-") \(error)"
            case .compensated(let index, let command): line = "compensated \(index) \(command.name)"
            case .compensationRetried(let index, _, let attempt, _): line = "retry \(index) \(attempt)"
            case .compensationFailed(let index, _, let error): line = "compensation failed \(index) \(error)"
            case .finished(let name): line = "done \(name)"
            case .rolledBack(let error): line = "rolled back \(error.compensationFailures.count)"
            }
            events.withLock { $0.append(line) }
        }
        let steps = [Step("a", trace), Step("b", trace, failsUndo: true), Step("c", trace, failsExecute: true)]
        await #expect(throws: TransactionError.self) {
            try await Transaction("t", steps: steps, observer: observer).run()
        }
        try await Transaction("ok", steps: [Step("x", trace)], observer: observer).run()
        #expect(
            events.withLock { $0 } == [
                "started t", "finished 0 a", "finished 1 b", "failed c c failed", "compensation failed 1 undo b failed",
                "compensated 0 a", "rolled back 1", "started ok", "finished 0 x", "done ok",
            ])
    }

    @Test func canUndoWhenAStepCan() {
        let trace = Trace()
        #expect(Transaction(steps: []).canUndo)
        #expect(!Transaction(steps: [Step("log", trace, canUndo: false)]).canUndo)
        #expect(Transaction(steps: [Step("log", trace, canUndo: false), Step("save", trace)]).canUndo)
    }
}

struct ScopedTransactionTests {
    @Test func returnsTheBodysValue() async throws {
        let trace = Trace()
        let total = try await transaction("checkout") { step in
            try await step(Step("reserve", trace))
            let payment = try await step("charge") {
                42
            } compensate: { amount in
                trace("refund \(amount)")
            }
            return payment + 1
        }
        #expect(total == 43)
        #expect(trace.lines == ["do reserve"])
    }

    @Test func aFailingStepRollsBackTheOthersWithTheirValues() async throws {
        let trace = Trace()
        let error = await #expect(throws: TransactionError.self) {
            try await transaction("checkout") { step in
                try await step(Step("reserve", trace))
                let payment = try await step("charge") {
                    42
                } compensate: { amount in
                    trace("refund \(amount)")
                }
                try await step(Step("ship", trace, failsExecute: true))
                return payment
            }
        }
        #expect(trace.lines == ["do reserve", "refund 42", "undo reserve"])
        #expect(error?.failedStep == .init(index: 2, name: "ship"))
    }

    @Test func aBodyErrorBetweenStepsNamesNoStep() async throws {
        let trace = Trace()
        let error = await #expect(throws: TransactionError.self) {
            try await transaction("t") { step in
                try await step(Step("a", trace))
                throw TestFailure("out of stock")
            }
        }
        #expect(trace.lines == ["do a", "undo a"])
        #expect(error?.failedStep == nil)
        #expect(error?.description == "transaction 't' failed: out of stock")
    }

    @Test func aFailingValueStepIsNamed() async throws {
        let error = await #expect(throws: TransactionError.self) {
            try await transaction("t") { step in
                _ = try await step("charge") { () async throws -> Int in
                    throw TestFailure("declined")
                } compensate: { _ in
                }
            }
        }
        #expect(error?.failedStep == .init(index: 0, name: "charge"))
    }

    @Test func nestedTransactionsRollBackAsOneStep() async throws {
        let trace = Trace()
        let error = await #expect(throws: TransactionError.self) {
            try await transaction("outer") { step in
                try await step(Step("a", trace))
                try await step.transaction("inner") { inner in
                    try await inner(Step("b", trace))
                    try await inner(Step("c", trace))
                }
                try await step(Step("d", trace, failsExecute: true))
            }
        }
        #expect(trace.lines == ["do a", "do b", "do c", "undo c", "undo b", "undo a"])
        #expect(error?.failedStep == .init(index: 2, name: "d"))
    }

    @Test func aFailingNestedTransactionIsTheFailedStep() async throws {
        let trace = Trace()
        let error = await #expect(throws: TransactionError.self) {
            try await transaction("outer") { step in
                try await step(Step("a", trace))
                try await step.transaction("inner") { inner in
                    try await inner(Step("b", trace))
                    try await inner(Step("c", trace, failsExecute: true))
                }
            }
        }
        #expect(trace.lines == ["do a", "do b", "undo b", "undo a"])
        #expect(error?.failedStep == .init(index: 1, name: "inner"))
        #expect((error?.error as? TransactionError)?.failedStep == .init(index: 1, name: "c"))
    }

    @Test func valueStepsRedoAndUndoWithTheirNewValue() async throws {
        let trace = Trace()
        let counter = Counter()
        let history = UndoHistory()
        try await history.group("charge twice") { step in
            _ = try await step("charge") {
                counter.add(1)
                return counter.value
            } compensate: { value in
                trace("refund \(value)")
            }
        }
        try await history.undo()
        try await history.redo()
        try await history.undo()
        #expect(trace.lines == ["refund 1", "refund 2"])
    }
}

/// A step failure the body caught and handled is not the transaction's failure.
struct TransactionBlameTests {
    let trace = Trace()

    @Test func aHandledStepFailureIsNotBlamedForALaterStepsError() async throws {
        let error = await #expect(throws: TransactionError.self) {
            try await transaction("t") { step in
                do { try await step(Step("flaky", trace, failsExecute: true)) } catch {}
                try await step(Step("b", trace))
                throw TestFailure("out of stock")
            }
        }
        #expect(error?.failedStep == nil)
        #expect(error?.description == "transaction 't' failed: out of stock")
    }

    @Test func aHandledStepFailureIsNotBlamedForTheBodysOwnError() async throws {
        let error = await #expect(throws: TransactionError.self) {
            try await transaction("t") { step in
                do { try await step(Step("flaky", trace, failsExecute: true)) } catch {}
                throw TestFailure("out of stock")
            }
        }
        #expect(error?.failedStep == nil)
    }

    @Test func aStepFailureTheBodyRethrowsIsStillBlamed() async throws {
        let error = await #expect(throws: TransactionError.self) {
            try await transaction("t") { step in
                try await step(Step("a", trace))
                do {
                    try await step(Step("charge", trace, failsExecute: true))
                } catch {
                    trace("log \(error)")
                    throw error
                }
            }
        }
        #expect(error?.failedStep == .init(index: 1, name: "charge"))
        #expect(trace.lines == ["do a", "log charge failed", "undo a"])
    }
}
