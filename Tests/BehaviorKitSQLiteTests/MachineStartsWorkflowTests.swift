import BehaviorKitSQLite
import BehaviorKitTesting
import Commands
import DurableMachines
import Foundation
import StateMachines
import Testing

/// A durable machine's step starts a workflow in its commit, the workflow tells the machine
/// what it did by an event with an id, and the machine hears how the run ended: on a store
/// that shares the journal's file (one commit), and on stores apart (the outbox's relay).
struct MachineStartsWorkflowTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    enum OrderState: String, Codable, Sendable { case placed, paid, shipped, delivered, stuck }
    enum OrderEvent: String, Codable, Sendable { case pay, handedOver, done, failed }

    static let lifecycle = StateMachineDefinition<OrderState, OrderEvent, String>(initial: .placed) {
        In(.placed) { On(.pay, to: .paid) }
        In(.paid) { On(.handedOver, to: .shipped) }
        In(.shipped) {
            On(.done, to: .delivered)
            On(.failed, to: .stuck)
        }
        In(.delivered)
        In(.stuck)
    }

    /// The orders: paying starts the shipment's run, which reports back.
    static func orders(
        _ store: any MachineStore, _ journal: any CommandJournal, _ clock: ManualClock
    ) -> DurableMachine<OrderState, OrderEvent, String> {
        DurableMachine(
            "order", definition: lifecycle, store: store, clock: clock,
            report: { $0.outcome == .done ? .done : .failed }, journal: journal
        ) { step, order in
            guard step.transitions.contains(where: { $0.target == .paid }) else { return [] }
            return [
                try MachineCommand(
                    starting: shipment(store, journal, clock), key: "ship-\(order)", input: order, on: "workflows",
                    reportsBack: true)
            ]
        }
    }

    /// The shipment: a step hands the parcel over, another tells the order, once per run.
    static func shipment(
        _ store: any MachineStore, _ journal: any CommandJournal, _ clock: ManualClock
    ) -> Workflow<String, String> {
        Workflow("shipment") { context, order in
            let parcel = try await context.step("hand over") { _ in "parcel-\(order)" }
            _ = try await context.step("tell the order") { step -> Bool in
                _ = try await orders(store, journal, clock).send(.handedOver, to: order, id: step.key)
                return true
            }
            return parcel
        }
    }

    static func workflows(
        _ store: any MachineStore, _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) -> Workflows {
        var registry = WorkflowRegistry()
        registry.register(shipment(store, journal, clock))
        return Workflows(
            registry, queue: CommandQueue("workflows", journal: journal),
            invoker: JournaledInvoker(journal: journal, owner: "worker", leaseDuration: .seconds(30), clock: clock),
            pollInterval: .seconds(30))
    }

    @Test func onOneStoreTheStepAndTheRunsStartCommitTogether() async throws {
        let clock = ManualClock()
        let store = try SQLiteStore(path: folder.path("orders.store"), clock: clock)
        let orders = Self.orders(store.machines, store.journal, clock)
        try await orders.start("o1", context: "o1")
        try await orders.send(.pay, to: "o1", id: "pay-1")
        // In the step's commit: no relay ran.
        let run = try #require(try await store.journal.record(forKey: "ship-o1"))
        #expect(run.queue == "workflows" && run.entry.kind == Workflow<String, String>.journalKind)
        #expect(try await store.journal.workflowRun("ship-o1")?.workflow == "shipment")

        try await Self.workflows(store.machines, store.journal, clock).runDue()
        #expect(try await store.journal.record(forKey: "ship-o1")?.status == .done)
        #expect(try await orders.instance("o1")?.state == .shipped, "the workflow's step sent the event")
        await clock.advance(by: .seconds(1))
        _ = try await orders.runEffects(owner: "w1")
        #expect(try await orders.instance("o1")?.state == .delivered, "the run's end reported back")
        try await store.close()
    }

    @Test func aRunsKeyTakenByAnotherInputLeavesTheStepUncommitted() async throws {
        let clock = ManualClock()
        let store = try SQLiteStore(path: folder.path("taken.store"), clock: clock)
        let workflows = Self.workflows(store.machines, store.journal, clock)
        try await workflows.start(Self.shipment(store.machines, store.journal, clock), key: "ship-o1", input: "other")
        let orders = Self.orders(store.machines, store.journal, clock)
        try await orders.start("o1", context: "o1")
        await #expect(throws: CommandJournalError.conflictingEntry(key: "ship-o1")) {
            try await orders.send(.pay, to: "o1")
        }
        #expect(try await orders.instance("o1")?.state == .placed)
        try await store.close()
    }

    @Test func onStoresApartTheRelayStartsTheRunOnceAndTheMachineHearsHowItEnded() async throws {
        let clock = ManualClock()
        let journal = InMemoryCommandJournal(clock: clock)
        let store = InMemoryMachineStore()
        let orders = Self.orders(store, journal, clock)
        try await orders.start("o1", context: "o1")
        try await orders.send(.pay, to: "o1", id: "pay-1")
        try await orders.send(.pay, to: "o1", id: "pay-1")  // a replay starts nothing
        #expect(try await journal.record(forKey: "ship-o1") == nil, "the start waits in the step's outbox")
        _ = try await orders.runEffects(owner: "w1")
        #expect(try await journal.workflowRuns().records.map(\.id) == ["ship-o1"])

        let workflows = Self.workflows(store, journal, clock)
        try await workflows.runDue()
        #expect(
            try await workflows.handle(Self.shipment(store, journal, clock), key: "ship-o1").result() == "parcel-o1")
        #expect(try await orders.instance("o1")?.state == .shipped)
        await clock.advance(by: .seconds(1))
        _ = try await orders.runEffects(owner: "w1")
        #expect(try await orders.instance("o1")?.state == .delivered)
        let history = try await orders.history(of: "o1")
        #expect(history.map(\.eventID).suffix(2) == ["ship-o1/1", "report:ship-o1"])
    }

    @Test func aRunsKeyMustBeOneAWorkflowCanHave() async throws {
        let clock = ManualClock()
        let shipment = Self.shipment(InMemoryMachineStore(), InMemoryCommandJournal(clock: clock), clock)
        #expect(throws: WorkflowError.self) {
            try MachineCommand(starting: shipment, key: "ship/o1", input: "o1", on: "workflows")
        }
    }
}
