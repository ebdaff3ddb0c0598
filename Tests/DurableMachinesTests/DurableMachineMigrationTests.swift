import BehaviorKitTesting
import DurableMachines
import Foundation
import Metrics
import MetricsTestKit
import StateMachines
import Testing

struct DurableMachineMigrationTests {
    enum Old: String, Codable, Sendable { case draft, sent }
    enum New: String, Codable, Sendable { case draft, submitted }
    enum Step: String, Codable, Sendable { case submit, reopen }

    static let old = StateMachineDefinition<Old, Step, Int>(initial: .draft) {
        In(.draft) { On(.submit, to: .sent) }
        In(.sent)
    }
    static let new = StateMachineDefinition<New, Step, Int>(initial: .draft) {
        In(.draft) { On(.submit, to: .submitted) }
        In(.submitted) { On(.reopen, to: .draft) }
    }

    @Test func aRenamedStateIsATypedErrorUntilAMigrateHookReadsIt() async throws {
        let store = InMemoryMachineStore()
        let before = DurableMachine("doc", definition: Self.old, store: store)
        try await before.start("d1", context: 3)
        try await before.send(.submit, to: "d1")

        let strict = DurableMachine("doc", definition: Self.new, store: store)
        await #expect(throws: DurableMachineError.unknownStates(MachineKey(machine: "doc", key: "d1"), ["sent"])) {
            try await strict.send(.reopen, to: "d1")
        }

        let migrating = DurableMachine("doc", definition: Self.new, store: store) { bytes in
            let text = String(decoding: bytes, as: UTF8.self).replacing("\"sent\"", with: "\"submitted\"")
            return try JSONDecoder().decode(MachineSnapshot<New, Int>.self, from: Data(text.utf8))
        }
        let step = try await migrating.send(.reopen, to: "d1")
        #expect(step.configuration == [.draft])
        #expect(try await migrating.instance("d1")?.context == 3)
        // The step stored the new snapshot: the strict machine reads it now.
        #expect(try await strict.instance("d1")?.state == .draft)
    }
}

/// Timers and steps of states renamed or removed since they were stored: one never stops the
/// others; `migrate` and `migrateStep` read them; what nothing reads is set aside.
struct DurableMachineRenamedStatesTests {
    enum Old: String, Codable, Sendable { case draft, sent }
    enum New: String, Codable, Sendable { case draft, submitted }
    enum Step: String, Codable, Sendable { case submit, reopen }

    static let old = StateMachineDefinition<Old, Step, Int>(initial: .draft) {
        In(.draft) { On(.submit, to: .sent) }
        In(.sent) { After(.seconds(5), to: .draft) }
    }
    static let new = StateMachineDefinition<New, Step, Int>(initial: .draft) {
        In(.draft) { On(.submit, to: .submitted) }
        In(.submitted) {
            On(.reopen, to: .draft)
            After(.seconds(5), to: .draft)
        }
    }

    static let migrate: @Sendable ([UInt8]) throws -> MachineSnapshot<New, Int> = { bytes in
        let text = String(decoding: bytes, as: UTF8.self).replacing("\"sent\"", with: "\"submitted\"")
        return try JSONDecoder().decode(MachineSnapshot<New, Int>.self, from: Data(text.utf8))
    }
    static let migrateStep: @Sendable ([UInt8]) throws -> MachineStep<New, Step> = { bytes in
        let text = String(decoding: bytes, as: UTF8.self).replacing("\"sent\"", with: "\"submitted\"")
        return try JSONDecoder().decode(MachineStep<New, Step>.self, from: Data(text.utf8))
    }

    /// `d1` submitted under the old definition (its timer stored under `sent`), `d2` under the new.
    static func stores(_ clock: ManualClock) async throws -> InMemoryMachineStore {
        let store = InMemoryMachineStore()
        let before = DurableMachine("doc", definition: old, store: store, clock: clock)
        try await before.start("d1", context: 1)
        try await before.send(.submit, to: "d1", id: "submit-d1")
        let after = DurableMachine("doc", definition: new, store: store, clock: clock)
        try await after.start("d2", context: 2)
        try await after.send(.submit, to: "d2")
        return store
    }

    @Test func aTimerOfARemovedStateIsSetAsideAndTheOthersFire() async throws {
        let clock = ManualClock()
        let store = try await Self.stores(clock)
        let metrics = TestMetrics()
        let strict = withMetricsFactory(metrics) {
            DurableMachine("doc", definition: Self.new, store: store, clock: clock)
        }
        await clock.advance(by: .seconds(6))
        let fired = try await strict.fireDueTimers()
        #expect(fired.map(\.configuration) == [[.draft]], "d2's timer fired though d1's cannot")
        #expect(try await strict.instance("d2")?.state == .draft)
        #expect(try await strict.fireDueTimers().isEmpty)
        let setAside = try metrics.expectCounter("behaviorkit_machine_timers_set_aside_total", [("machine", "doc")])
        #expect(setAside.totalValue == 1, "the timer set aside was tried once, not at every call")
        #expect(try await store.dueTimers(machine: "doc", dueBy: clock.currentDate, limit: 10).count == 1, "it is kept")
    }

    @Test func aTimerOfARenamedStateFiresThroughMigrate() async throws {
        let clock = ManualClock()
        let store = try await Self.stores(clock)
        let migrating = DurableMachine("doc", definition: Self.new, store: store, clock: clock, migrate: Self.migrate)
        await clock.advance(by: .seconds(6))
        let fired = try await migrating.fireDueTimers()
        #expect(fired.count == 2)
        #expect(try await migrating.instance("d1")?.state == .draft, "d1's timer fired as submitted's")
        #expect(try await store.nextTimerDue(machine: "doc") == nil, "the old timer is gone with its step")
    }

    @Test func historyAndReplaysOfARenamedStateAreReadByMigrateStepOrAnsweredWithout() async throws {
        let clock = ManualClock()
        let store = try await Self.stores(clock)
        let strict = DurableMachine("doc", definition: Self.new, store: store, clock: clock, migrate: Self.migrate)
        // Without migrateStep: the unreadable step is left out, and a replay is still answered.
        #expect(try await strict.history(of: "d1").map(\.sequence) == [1])
        let replay = try await strict.send(.submit, to: "d1", id: "submit-d1")
        #expect(replay.isReplay && replay.sequence == 2 && replay.configuration == [.submitted])

        let reading = DurableMachine(
            "doc", definition: Self.new, store: store, clock: clock, migrate: Self.migrate,
            migrateStep: Self.migrateStep)
        let history = try await reading.history(of: "d1")
        #expect(history.map(\.configuration) == [[.draft], [.submitted]])
        let read = try await reading.send(.submit, to: "d1", id: "submit-d1")
        #expect(read.isReplay && read.transitions.map(\.target) == [.submitted])
    }
}
