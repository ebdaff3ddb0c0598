import BehaviorKitTesting
import Commands
import DurableMachines
import StateMachines
import Testing

/// `wait(for:state:timeout:)`: a caller waits for a key to reach a state, woken by a step of its
/// own process at once, by another process's at the next look, or answered `nil` at the timeout.
struct DurableMachineWaitTests {
    enum Phase: String, Codable, Sendable { case placed, paid, shipped }
    enum Signal: String, Codable, Sendable { case pay, ship }

    static let definition = StateMachineDefinition<Phase, Signal, Int>(initial: .placed) {
        In(.placed) { On(.pay, to: .paid) }
        In(.paid) { On(.ship, to: .shipped) }
        In(.shipped)
    }

    let clock = ManualClock()
    let store = InMemoryMachineStore()
    func machine() -> DurableMachine<Phase, Signal, Int> {
        DurableMachine("orders", definition: Self.definition, store: store, clock: clock)
    }

    @Test(.timeLimit(.minutes(1)))
    func aStepOfThisProcessWakesTheWaiterAtOnce() async throws {
        let orders = machine()
        try await orders.start("o1", context: 0)
        let waiter = Task { try await orders.wait(for: "o1", state: .shipped, timeout: .seconds(30), clock: clock) }
        await clock.waitForSleepers(count: 1)
        try await orders.send(.pay, to: "o1")
        #expect(try await orders.instance("o1")?.state == .paid)
        try await orders.send(.ship, to: "o1")
        // No time passes: the commit woke it.
        let shipped = try await waiter.value
        #expect(shipped?.state == .shipped && shipped?.version == 3)
    }

    @Test(.timeLimit(.minutes(1)))
    func anotherProcesssStepIsSeenAtTheNextLookAndAKeyNotStartedIsWaitedFor() async throws {
        let orders = machine()
        let elsewhere = machine()  // another process on the same store: its commits wake nobody here
        let waiter = Task {
            try await orders.wait(
                for: "o2", state: .paid, timeout: .seconds(30), pollInterval: .milliseconds(100), clock: clock)
        }
        await clock.waitForSleepers(count: 1)
        try await elsewhere.start("o2", context: 0)
        try await elsewhere.send(.pay, to: "o2")
        await clock.advance(by: .milliseconds(100))
        #expect(try await waiter.value?.state == .paid)
    }

    @Test(.timeLimit(.minutes(1)))
    func theWaitAnswersNilAtItsTimeout() async throws {
        let orders = machine()
        try await orders.start("o3", context: 0)
        let waiter = Task {
            try await orders.wait(
                for: "o3", state: .shipped, timeout: .seconds(1), pollInterval: .seconds(10), clock: clock)
        }
        await clock.waitForSleepers(count: 1)
        await clock.advance(by: .seconds(1))
        #expect(try await waiter.value == nil)
    }

    @Test func aKeyNoStoreCanKeepIsRefused() async throws {
        await #expect(throws: InvalidKeyError.self) {
            try await machine().wait(for: "a\u{0}b", state: .paid, timeout: .seconds(1), clock: clock)
        }
    }
}
