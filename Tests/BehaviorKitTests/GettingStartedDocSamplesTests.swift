import BehaviorKit
import BehaviorKitTesting
import Testing

/// The samples of BehaviorKit's getting-started guide (`Sources/BehaviorKit/Documentation.docc/
/// GettingStarted.md`), as written there: each must compile with `import BehaviorKit` alone (and
/// BehaviorKitTesting for the clock) and do what its comments say.
struct GettingStartedDocSamplesTests {
    enum Door: Hashable, Sendable { case closed, open }
    enum Push: Hashable, Sendable { case open, close }

    let door = StateMachineDefinition<Door, Push, Int>(initial: .closed) {
        In(.closed) { On(.open, to: .open) { $0 += 1 } }  // counts the openings
        In(.open) {
            On(.close, to: .closed); After(.seconds(30), to: .closed)
        }
    }

    actor Cart {
        private(set) var items: [String: Int] = [:]
        func add(_ item: String, _ count: Int) { items[item, default: 0] += count }
        func remove(_ item: String, _ count: Int) {
            items[item, default: 0] -= count
            if items[item] == 0 { items[item] = nil }
        }
    }

    struct OutOfStock: Error {}

    @Test func modelStates() {
        var machine = StateMachine(door, context: 0)
        #expect(machine.send(.open).description == "closed → open on open")
        #expect(machine.send(.open).description == "refused: no transition for event 'open' in state 'open'")
        #expect(machine.context == 1)
        #expect(door.validate().isEmpty)
    }

    @Test func undoAndCompensateWithCommands() async throws {
        let cart = Cart()
        func adding(_ item: String, _ count: Int) -> ClosureCommand {
            ClosureCommand("Add \(count) \(item)") {
                await cart.add(item, count)
            } undo: {
                await cart.remove(item, count)
            }
        }

        let history = UndoHistory()
        try await history.perform(adding("apples", 2))
        #expect(history.status.undoMenuTitle == "Undo Add 2 apples")
        try await history.undo()
        #expect(await cart.items.isEmpty)
        try await history.redo()
        #expect(await cart.items == ["apples": 2])

        let ship = ClosureCommand("ship") { throw OutOfStock() }
        do {
            try await Transaction("checkout", steps: [adding("pears", 3), ship]).run()
            Issue.record("the checkout did not fail")
        } catch {
            #expect("\(error)" == "transaction 'checkout' failed at step 2 'ship': OutOfStock()")
            #expect(await cart.items == ["apples": 2])
        }
    }

    @Test func checkAndFormatWithAChain() throws {
        let phone = Pipeline {
            NonEmptyValidator()
            LengthValidator(exactly: 11)
            MaskFormatter("+X (XXX) XXX XX-XX")
        }
        #expect(try phone.run("79634480209") == "+7 (963) 448 02-09")
        #expect {
            try phone.run("123")
        } throws: { error in
            "\(error)" == #"length: expected 11 characters, got 3 in "123""#
        }
    }

    @Test func testTimeWithoutWaiting() async {
        let clock = ManualClock()
        let runtime = StateMachineRuntime(door, context: 0, clock: clock)
        runtime.send(.open)
        await clock.advance(by: .seconds(30))
        await runtime.idle()
        #expect(runtime.state == .closed)
    }
}
