import BehaviorKitTesting
import Commands
import DurableMachines
import StateMachines
import Testing

struct DurableMachineCommandsTests {
    enum OrderState: String, Codable, Sendable { case placed, paid }
    enum OrderEvent: String, Codable, Sendable { case pay }

    struct Ship: JournaledCommand {
        static let journalKind = "test.ship"
        var order: String
        var name: String { "ship \(order)" }
        func execute() async throws {}
        func undo() async throws {}
    }

    static let lifecycle = StateMachineDefinition<OrderState, OrderEvent, String>(initial: .placed) {
        In(.placed) { On(.pay, to: .paid) }
        In(.paid)
    }

    static func orders(
        _ store: any MachineStore, journal: (any CommandJournal)?
    ) -> DurableMachine<OrderState, OrderEvent, String> {
        DurableMachine("order", definition: lifecycle, store: store, journal: journal) { step, order in
            step.transitions.contains { $0.target == .paid }
                ? [try MachineCommand(Ship(order: order), on: "shipping")] : []
        }
    }

    @Test func aStepsCommandsAreEnqueuedOnceAfterItCommits() async throws {
        let journal = InMemoryCommandJournal()
        let store = InMemoryMachineStore()
        let orders = Self.orders(store, journal: journal)
        try await orders.start("o1", context: "o1")
        try await orders.send(.pay, to: "o1", id: "pay-1")
        try await orders.send(.pay, to: "o1", id: "pay-1")  // a replay emits nothing
        #expect(
            try await journal.allRecords().isEmpty, "the command waits in the step's outbox until a worker relays it")

        #expect(try await orders.runEffects(owner: "w1") == 1)
        let records = try await journal.allRecords()
        #expect(records.map(\.entry.idempotencyKey) == ["order/o1/2/0"])
        #expect(records.first?.queue == "shipping" && records.first?.entry.kind == "test.ship")
        #expect(try await orders.runEffects(owner: "w1") == 0, "the relayed command is out of the outbox")

        // A relay that stopped after the enqueue but before it cleared its record: the next one
        // enqueues the same key again, which changes nothing.
        try await orders.start("o2", context: "o2")
        try await orders.send(.pay, to: "o2")
        let now = ManualClock().currentDate
        let claimed = try await store.claimEffects(
            machine: "order", owner: "dead", now: now, leaseExpiresAt: now, limit: 10)
        try #require(claimed.count == 1)
        _ = try await journal.enqueue(
            CommandJournalEntry(
                idempotencyKey: "order/o2/2/0", kind: "test.ship", payload: Array(#"{"order":"o2"}"#.utf8)),
            queue: "shipping", after: .zero)
        #expect(try await orders.runEffects(owner: "w2") == 1)
        #expect(try await journal.allRecords().map(\.entry.idempotencyKey) == ["order/o1/2/0", "order/o2/2/0"])
    }

    @Test func aStepThatEmitsCommandsWithoutAJournalIsRefusedAndChangesNothing() async throws {
        let orders = Self.orders(InMemoryMachineStore(), journal: nil)
        try await orders.start("o1", context: "o1")
        await #expect(throws: DurableMachineError.commandsWithoutJournal(MachineKey(machine: "order", key: "o1"))) {
            try await orders.send(.pay, to: "o1")
        }
        #expect(try await orders.instance("o1")?.state == .placed)
    }
}

extension DurableMachineCommandsTests {
    enum Shipping: PayloadEvent, Codable {
        case pay, shipped, shippingFailed(String)

        enum Kind: Hashable, Sendable { case pay, shipped, shippingFailed }

        var kind: Kind {
            switch self {
            case .pay: .pay
            case .shipped: .shipped
            case .shippingFailed: .shippingFailed
            }
        }
    }
    enum ShipState: String, Codable, Sendable { case placed, shipping, shipped, stuck }

    struct OutOfStock: Error, CustomStringConvertible {
        var description: String { "out of stock" }
    }

    static let shippingLifecycle = StateMachineDefinition<ShipState, Shipping, Bool>(initial: .placed) {
        In(.placed) { On(.pay, to: .shipping) }
        In(.shipping) {
            On(.shipped, to: .shipped)
            On(Shipping.Kind.shippingFailed, to: .stuck)
        }
        In(.shipped)
        In(.stuck)
    }

    @Test func aTransactionAStepStartedReportsHowItEndedToItsKeyOnce() async throws {
        let journal = InMemoryCommandJournal()
        let clock = ManualClock()
        var registry = CommandRegistry()
        registry.register("test.pack", arguments: Bool.self) { _ in
            ClosureCommand("pack") {
            } undo: {
            }
        }
        registry.register("test.hand-over", arguments: Bool.self) { inStock in
            ClosureCommand("hand over") { if !inStock { throw OutOfStock() } }
        }
        let invoker = JournaledInvoker(journal: journal, registry: registry)
        let orders = DurableMachine(
            "order", definition: Self.shippingLifecycle, store: InMemoryMachineStore(), clock: clock,
            report: { report in report.outcome == .done ? .shipped : .shippingFailed(report.reason ?? "") },
            journal: journal
        ) { [registry] step, inStock in
            guard step.configuration == [.shipping], case .event(.pay) = step.trigger else { return [] }
            let steps = [
                try registry.step("test.pack", arguments: inStock),
                try registry.step("test.hand-over", arguments: inStock),
            ]
            return [
                try MachineCommand(invoker.transaction("ship", key: "ship-\(inStock)", steps: steps), on: "shipping")
            ]
        }
        try await orders.start("full", context: true)
        try await orders.start("empty", context: false)
        try await orders.send(.pay, to: "full")
        try await orders.send(.pay, to: "empty")

        #expect(try await orders.runEffects(owner: "w1") == 0, "enqueued; the transactions have not ended")
        #expect(
            try await journal.allRecords().filter { $0.entry.parentKey == nil }.map(\.queue) == [
                "shipping", "shipping",
            ])
        // Another process's worker runs them.
        let worker = QueueWorker(CommandQueue("shipping", journal: journal), invoker: invoker, slots: 2)
        _ = try await worker.runDue()
        #expect(try await journal.record(forKey: "ship-false")?.status == .compensated)

        // The reports wait for the relay's next look (a second later, on the machine's clock).
        #expect(try await orders.runEffects(owner: "w1") == 0, "the relay looks again in a second")
        await clock.advance(by: .seconds(1))
        #expect(try await orders.runEffects(owner: "w1") == 2)
        #expect(try await orders.instance("full")?.state == .shipped)
        #expect(try await orders.instance("empty")?.state == .stuck)
        let history = try await orders.history(of: "empty")
        #expect(history.last?.trigger == .event(.shippingFailed("out of stock")))
        #expect(history.last?.eventID == "report:ship-false")
        #expect(try await orders.runEffects(owner: "w1") == 0, "each report is delivered once")
    }
}
