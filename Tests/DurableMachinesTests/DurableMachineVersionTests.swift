import BehaviorKitTesting
import DurableMachines
import StateMachines
import Testing

/// An instance keeps the definition version it started with, as Restate's XState objects do:
/// a deploy of a new definition runs new instances on it and the old ones on theirs (events,
/// timers, effects), until each is upgraded explicitly.
struct DurableMachineVersionTests {
    enum Phase: String, Codable, Sendable { case placed, paid, review, expired, notified }
    enum Signal: String, Codable, Sendable { case pay, notify }

    /// Version 1: paying pays; an unpaid order expires after a minute; a paid one notifies.
    static let first = StateMachineDefinition<Phase, Signal, Int>(initial: .placed) {
        In(.placed) {
            On(.pay, to: .paid)
            After(.seconds(60), to: .expired)
        }
        In(.paid) {
            On(.notify, to: .notified)
            Effect("notify") { _, send in send.send(.notify) }
        }
        In(.review)
        In(.expired)
        In(.notified)
    }

    /// Version 2: paying goes to a review; nothing expires.
    static let second = StateMachineDefinition<Phase, Signal, Int>(initial: .placed) {
        In(.placed) { On(.pay, to: .review) }
        In(.paid) { On(.notify, to: .notified) }
        In(.review)
        In(.expired)
        In(.notified)
    }

    static func machines(
        _ store: InMemoryMachineStore, _ clock: ManualClock
    ) -> (first: DurableMachine<Phase, Signal, Int>, second: DurableMachine<Phase, Signal, Int>) {
        (
            DurableMachine("order", definition: first, store: store, clock: clock),
            DurableMachine(
                "order", definition: second, version: 2, earlierVersions: [1: first], store: store, clock: clock)
        )
    }

    @Test func anInstanceRunsTheVersionItStartedWith() async throws {
        let store = InMemoryMachineStore()
        let clock = ManualClock()
        let (first, second) = Self.machines(store, clock)
        try await first.start("old", context: 1)
        // The deploy: from now on the second version's machine serves every key.
        try await second.start("new", context: 2)
        #expect(try await second.instance("old")?.definitionVersion == 1)
        #expect(try await second.instance("new")?.definitionVersion == 2)
        #expect(try await second.send(.pay, to: "old").configuration == [.paid])
        #expect(try await second.send(.pay, to: "new").configuration == [.review])
        #expect(try await second.instance("old")?.definitionVersion == 1, "a step keeps the version")
    }

    @Test func anOldInstancesTimersAndEffectsAreItsVersions() async throws {
        let store = InMemoryMachineStore()
        let clock = ManualClock()
        let (first, second) = Self.machines(store, clock)
        try await first.start("unpaid", context: 1)
        try await first.start("paid", context: 2)
        try await second.send(.pay, to: "paid")
        await clock.advance(by: .seconds(61))
        let fired = try await second.fireDueTimers()
        #expect(fired.map(\.configuration) == [[.expired]], "version 1's timer fired for its instance")
        #expect(try await second.runEffects(owner: "w1") == 1, "version 1's effect ran for its instance")
        #expect(try await second.instance("paid")?.state == .notified)
    }

    @Test func anInstanceOfAVersionTheMachineDoesNotHaveIsRefusedByName() async throws {
        let store = InMemoryMachineStore()
        let clock = ManualClock()
        let (_, second) = Self.machines(store, clock)
        try await second.start("new", context: 2)
        let third = DurableMachine("order", definition: Self.first, version: 3, store: store, clock: clock)
        await #expect(throws: DurableMachineError.unknownDefinitionVersion(MachineKey(machine: "order", key: "new"), 2))
        {
            try await third.send(.pay, to: "new")
        }
        #expect(
            "\(DurableMachineError.unknownDefinitionVersion(MachineKey(machine: "order", key: "new"), 2))".contains(
                "earlierVersions"))
    }

    @Test func aTimerOfAnInstanceOfAnUnknownVersionIsSetAsideAndTheOthersFire() async throws {
        let store = InMemoryMachineStore()
        let clock = ManualClock()
        let (first, _) = Self.machines(store, clock)
        try await first.start("old", context: 1)
        let third = DurableMachine("order", definition: Self.first, version: 3, store: store, clock: clock)
        try await third.start("fresh", context: 3)
        await clock.advance(by: .seconds(61))
        let fired = try await third.fireDueTimers()
        #expect(fired.map(\.configuration) == [[.expired]])
        #expect(try await third.instance("fresh")?.state == .expired)
        #expect(try await first.instance("old")?.state == .placed, "its timer waits for a machine that has version 1")
    }

    @Test func anUpgradeMovesAnInstanceToTheCurrentVersionInOneRecordedStep() async throws {
        let store = InMemoryMachineStore()
        let clock = ManualClock()
        let (first, second) = Self.machines(store, clock)
        try await first.start("old", context: 1)
        let upgraded = try await second.upgrade("old")
        #expect(upgraded.definitionVersion == 2 && upgraded.state == .placed)
        #expect(try await second.history(of: "old").last?.trigger == .upgrade(from: 1, to: 2))
        // Version 1's timer of its visit is gone with the upgrade: version 2 arms none there.
        await clock.advance(by: .seconds(61))
        #expect(try await second.fireDueTimers().isEmpty)
        #expect(try await second.send(.pay, to: "old").configuration == [.review])
        // Upgrading an instance at the current version changes nothing.
        let paid = try #require(try await second.instance("old"))
        let again = try await second.upgrade("old")
        #expect(again.version == paid.version && again.state == .review)
        #expect(try await second.history(of: "old").count == 3)
    }

    @Test func anUpgradeCanMapTheSnapshot() async throws {
        let store = InMemoryMachineStore()
        let clock = ManualClock()
        let (first, second) = Self.machines(store, clock)
        try await first.start("old", context: 1)
        _ = try await first.send(.pay, to: "old")
        let upgraded = try await second.upgrade("old") { snapshot in
            var mapped = snapshot
            mapped.state = .review
            if !mapped.configuration.isEmpty { mapped.configuration = [.review] }
            return mapped
        }
        #expect(upgraded.state == .review && upgraded.definitionVersion == 2)
    }
}
