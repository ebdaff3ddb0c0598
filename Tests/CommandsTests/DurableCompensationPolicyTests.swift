import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Testing

/// A `DurableTransaction` undoes its steps under the same `CompensationPolicy` as a
/// `Transaction`: retries after a backoff, a limit, a failure mode and a deadline, on an
/// injected clock; the journal's record says which steps were not undone, and why.
struct DurableCompensationPolicyTests {
    struct Declined: Error, CustomStringConvertible {
        var description: String { "declined" }
    }

    let clock = ManualClock()
    let events = EventLog()
    let journal = InMemoryCommandJournal()

    /// "reserve" undoes after failing `failures` times (or hangs at `gate`); "charge" fails.
    static func registry(failures: Int, undone: LockedValue<Int>, gate: AsyncGate? = nil) -> CommandRegistry {
        let left = LockedValue(failures)
        var registry = CommandRegistry()
        registry.register("test.reserve", arguments: Int.self, output: Int.self) { order, _ in
            order
        } compensate: { _, _, _ in
            if let gate { await gate.wait() }
            let fails = left.withLock { left -> Bool in
                defer { left -= 1 }
                return left > 0
            }
            if fails { throw TestFailure("release failed") }
            undone.withLock { $0 += 1 }
        }
        registry.register("test.charge", arguments: Int.self, output: Int.self) { _, _ in throw Declined() }
        return registry
    }

    func steps(_ registry: CommandRegistry) throws -> [DurableStep] {
        [try registry.step("test.reserve", arguments: 1), try registry.step("test.charge", arguments: 1)]
    }

    @Test func aCompensationThatFailsTwiceIsRetriedAfterItsBackoffAndTheRecordIsCompensated() async throws {
        let undone = LockedValue(0)
        let registry = Self.registry(failures: 2, undone: undone)
        let policy = CompensationPolicy(retries: 2, backoff: .constant(.seconds(1)), clock: clock)
        let invoker = JournaledInvoker(journal: journal, registry: registry)
        let transaction = invoker.transaction(
            "order", key: "o1", steps: try steps(registry), compensation: policy, observer: events.observer)
        let run = Task { try await transaction.run() }
        for _ in 0..<2 {
            await clock.waitForSleepers()
            #expect(undone.withLock { $0 } == 0)
            await clock.advance(by: .seconds(1))
        }
        let error = try #require(await run.result.failure as? TransactionError)
        #expect(error.compensationFailures.isEmpty)
        #expect(undone.withLock { $0 } == 1)
        #expect(
            events.lines == [
                "retry 0 #1 after release failed", "retry 0 #2 after release failed", "compensated 0",
            ])
        #expect(try await journal.record(forKey: "o1")?.status == .compensated)
        #expect(try await journal.record(forKey: "o1/0")?.status == .compensated)
    }

    @Test func aCompensationThatKeepsFailingStopsAtTheLimitAndTheRecordSaysSo() async throws {
        let undone = LockedValue(0)
        let registry = Self.registry(failures: 100, undone: undone)
        let policy = CompensationPolicy(retries: 2, clock: clock)
        let invoker = JournaledInvoker(journal: journal, registry: registry)
        let transaction = invoker.transaction(
            "order", key: "o1", steps: try steps(registry), compensation: policy, observer: events.observer)
        let error = await #expect(throws: TransactionError.self) { try await transaction.run() }
        #expect(
            error?.compensationFailures == [
                .init(step: .init(index: 0, name: "test.reserve"), error: TestFailure("release failed"))
            ])
        #expect(
            events.lines == [
                "retry 0 #1 after release failed", "retry 0 #2 after release failed",
                "failed 0: release failed",
            ])
        let record = try #require(try await journal.record(forKey: "o1"))
        #expect(record.status == .failed)
        #expect(record.failureReason?.contains("release failed") == true)
        #expect(try await journal.record(forKey: "o1/0")?.status == .done)
    }

    @Test func theDeadlineEndsARollbackThatHangsAndTheRecordSaysSo() async throws {
        let undone = LockedValue(0)
        let gate = AsyncGate()
        let registry = Self.registry(failures: 0, undone: undone, gate: gate)
        let policy = CompensationPolicy(deadline: .seconds(5), clock: clock)
        let invoker = JournaledInvoker(journal: journal, registry: registry)
        let transaction = invoker.transaction(
            "order", key: "o1", steps: try steps(registry), compensation: policy, observer: events.observer)
        let run = Task { try await transaction.run() }
        await gate.waitForWaiter()
        await clock.waitForSleepers()
        await clock.advance(by: .seconds(5))
        let error = try #require(await run.result.failure as? TransactionError)
        let passed = CompensationInterruption.deadlinePassed(.seconds(5))
        #expect(error.compensationFailures == [.init(step: .init(index: 0, name: "test.reserve"), error: passed)])
        let record = try #require(try await journal.record(forKey: "o1"))
        #expect(record.status == .failed)
        #expect(record.failureReason?.contains(passed.description) == true)
        gate.open()  // the hung compensation ends late: it is not recorded, nor told
        for _ in 0..<50 { await Task.yield() }
        #expect(events.lines.isEmpty)
        #expect(try await journal.record(forKey: "o1/0")?.status == .done)
    }

    @Test func aTransactionWithoutItsOwnPolicyTakesTheInvokers() async throws {
        let undone = LockedValue(0)
        let registry = Self.registry(failures: 1, undone: undone)
        let invoker = JournaledInvoker(
            journal: journal, registry: registry, compensation: CompensationPolicy(retries: 1, clock: clock))
        let transaction = invoker.transaction("order", key: "o1", steps: try steps(registry))
        #expect(transaction.compensation.retries == 1)
        await #expect(throws: TransactionError.self) { try await transaction.run() }
        #expect(undone.withLock { $0 } == 1)
        #expect(try await journal.record(forKey: "o1")?.status == .compensated)
    }

    @Test func stopAtFirstFailureLeavesTheOlderStepsAndTheRecordSaysWhy() async throws {
        let undone = LockedValue(0)
        var registry = Self.registry(failures: 0, undone: undone)
        registry.register("test.hold", arguments: Int.self, output: Int.self) { order, _ in
            order
        } compensate: { _, _, _ in
            throw TestFailure("hold stuck")
        }
        let steps = [
            try registry.step("test.reserve", arguments: 1), try registry.step("test.hold", arguments: 1),
            try registry.step("test.charge", arguments: 1),
        ]
        let invoker = JournaledInvoker(journal: journal, registry: registry)
        let transaction = invoker.transaction(
            "order", key: "o1", steps: steps, compensation: CompensationPolicy(failureMode: .stopAtFirstFailure))
        let error = await #expect(throws: TransactionError.self) { try await transaction.run() }
        let hold = TransactionError.Step(index: 1, name: "test.hold")
        #expect(
            error?.compensationFailures == [
                .init(step: hold, error: TestFailure("hold stuck")),
                .init(
                    step: .init(index: 0, name: "test.reserve"),
                    error: CompensationInterruption.stoppedAtFailure(hold)),
            ])
        #expect(undone.withLock { $0 } == 0)
        let reason = try #require(try await journal.record(forKey: "o1")?.failureReason)
        #expect(reason.contains("compensation stopped when"))
    }
}
