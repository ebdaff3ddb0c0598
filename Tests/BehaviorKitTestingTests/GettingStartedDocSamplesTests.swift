import BehaviorKit
import BehaviorKitTesting
import Testing

/// The samples of BehaviorKitTesting's getting-started guide (`Sources/BehaviorKitTesting/
/// Documentation.docc/GettingStarted.md`), as written there: each must compile and do what its
/// comments say.
struct GettingStartedDocSamplesTests {
    enum Door: Hashable, Sendable { case closed, open }
    enum Push: Hashable, Sendable { case open, close }

    static let door = StateMachineDefinition<Door, Push, Int>(initial: .closed) {
        In(.closed) { On(.open, to: .open) { $0 += 1 } }
        In(.open) {
            On(.close, to: .closed); After(.seconds(30), to: .closed)
        }
    }

    /// A store kept in an actor's dictionary.
    actor DictionaryStore: LookupStore {
        nonisolated let name = "dictionary"
        private var values: [Int: String] = [:]
        func lookup(_ key: Int) -> String? { values[key] }
        func store(_ value: String, for key: Int) { values[key] = value }
        func remove(_ key: Int) { values[key] = nil }
    }

    /// The same store with a bug: storing again keeps the first value.
    actor FirstValueStore: LookupStore {
        nonisolated let name = "first value"
        private var values: [Int: String] = [:]
        func lookup(_ key: Int) -> String? { values[key] }
        func store(_ value: String, for key: Int) { if values[key] == nil { values[key] = value } }
        func remove(_ key: Int) { values[key] = nil }
    }

    /// The system under test: a door controller written by hand, without the definition.
    struct DoorController {
        private(set) var isOpen = false
        mutating func handle(_ push: Push) { isOpen = push == .open }
        mutating func timeOut() { isOpen = false }
    }

    @Test func driveTimeByHand() async throws {
        let clock = ManualClock()
        let reminder = Task {
            try await clock.sleep(for: .seconds(60)); return "ring"
        }
        await clock.waitForSleepers()  // the task is asleep on the clock
        await clock.advance(by: .seconds(59))
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .seconds(1))
        #expect(try await reminder.value == "ring")
    }

    @Test func driveARuntime() async {
        let clock = ManualClock()
        let runtime = StateMachineRuntime(Self.door, context: 0, clock: clock)
        runtime.send(.open)
        await clock.advance(by: .seconds(29))
        #expect(runtime.state == .open)
        await clock.advance(by: .seconds(1))
        await runtime.idle()
        #expect(runtime.state == .closed)
    }

    @Test func checkACacheTier() async throws {
        try await CacheTierConformance(keys: [1, 2, 3], values: ["a", "b"]) { DictionaryStore() }.run()
        await #expect {
            try await CacheTierConformance(keys: [1, 2, 3], values: ["a", "b"]) { FirstValueStore() }.run()
        } throws: { error in
            "\(error)" == """
                1 cache tier conformance check(s) failed:
                - storing again replaces the value: for key 1, expected b, got a
                """
        }
    }

    @Test func checkACommandJournal() async throws {
        try await CommandJournalConformance.check { clock in InMemoryCommandJournal(clock: clock) }
    }

    @Test func testAMachineAgainstItsModel() throws {
        let model = StateMachineModel(Self.door, context: 0, events: [.open, .close])
        #expect(model.missedRules.isEmpty)
        let paths = model.transitionCoverage()
        #expect(
            paths.map(\.description) == ["open ⇒ open", "open → close ⇒ closed", "open → after 30.0 seconds ⇒ closed"])
        try model.run(paths, system: { DoorController() }) { door, step in
            switch step {
            case .send(let push): door.handle(push)
            case .timer: door.timeOut()
            }
        } check: { door, machine in
            #expect(door.isOpen == (machine.state == .open))
        }
    }
}
