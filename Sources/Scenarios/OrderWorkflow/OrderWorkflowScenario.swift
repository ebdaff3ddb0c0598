import BehaviorKitSQLite
import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation

/// An order as a durable workflow: it reserves its items, waits for its payment message, then
/// sleeps an hour before it ships. Its worker is killed while the run sleeps; an hour later a
/// worker of another process opens the same SQLite journal and finishes the run: the steps that
/// finished answer from the journal without running again, and every step runs once. Time is a
/// manual clock moved by the scenario, so that the hour passes at once and every run prints the
/// same.
public enum OrderWorkflowScenario {
    /// The tour's stop.
    public static let tourStop = TourStop(
        command: "order-workflow", title: "Order workflow: a durable workflow finishes in another worker"
    ) { console in
        try await run(console: console)
    }

    /// An order: its id and how many items it holds.
    struct Order: Codable, Sendable {
        var id: String
        var items: Int
    }

    /// A payment message.
    struct Payment: Codable, Sendable {
        var id: String
        var cents: Int
    }

    /// The order's workflow; each step prints what it does and counts in `ran`.
    static func workflow(_ console: Console, _ ran: LockedValue<[String: Int]>) -> Workflow<Order, String> {
        Workflow("order") { context, order in
            @Sendable func did(_ step: String, _ line: String) {
                ran.withLock { $0[step, default: 0] += 1 }
                console.print("  \(context.owner): \(line)")
            }
            try await context.step("reserve") { _ in did("reserve", "reserved \(order.items) items for \(order.id)") }
            guard let payment = try await context.receive(Payment.self, topic: "paid", timeout: .seconds(86_400)) else {
                try await context.step("release") { _ in did("release", "no payment in a day: released the items") }
                return "\(order.id) expired"
            }
            try await context.step("charge") { _ in
                did("charge", "charged \(payment.cents) cents (payment \(payment.id))")
            }
            try await context.sleep(for: .seconds(3_600))
            try await context.step("ship") { _ in did("ship", "shipped \(order.id)") }
            return "\(order.id) shipped, paid by \(payment.id)"
        }
    }

    /// Runs the scenario on a SQLite journal in a folder of its own, deleted after.
    public static func run(console: Console) async throws {
        let folder = try ScenarioFolder("order-workflow")
        defer { folder.remove() }
        let path = folder.path + "/orders.sqlite"
        let clock = ManualClock()
        let ran = LockedValue<[String: Int]>([:])
        let order = workflow(console, ran)
        var registry = WorkflowRegistry()
        registry.register(order)
        func worker(_ owner: String, _ journal: SQLiteCommandJournal) -> Workflows {
            Workflows(
                registry, queue: CommandQueue("orders", journal: journal),
                invoker: JournaledInvoker(journal: journal, owner: owner, leaseDuration: .seconds(30), clock: clock),
                pollInterval: .seconds(30))
        }

        let first = try SQLiteCommandJournal(path: path, clock: clock)
        let killed = worker("worker-1", first)
        try await killed.start(order, key: "order-7", input: Order(id: "order-7", items: 2))
        console.print("Started order-7: a workflow run on queue 'orders' of a SQLite journal.")
        try await killed.runDue()
        console.print("worker-1 took it up; the run is \(try await state(first)).")
        let payment = Payment(id: "p-1", cents: 4_200)
        try await killed.send(payment, to: "order-7", topic: "paid", id: payment.id)
        try await killed.send(payment, to: "order-7", topic: "paid", id: payment.id)
        console.print("Payment p-1 sent twice (a retried request): the second send changes nothing.")
        try await killed.runDue()
        console.print("worker-1 took it up again; the run is \(try await state(first)) for an hour.")
        try await first.close()
        console.print("worker-1 is killed while the run sleeps: its connection closed, nothing of it left.")

        await clock.advance(by: .seconds(3_600))
        let second = try SQLiteCommandJournal(path: path, clock: clock)
        let successor = worker("worker-2", second)
        console.print("An hour later, worker-2 opens the journal as another process would, and takes the run up:")
        try await successor.runDue()
        let answer = try await successor.handle(order, key: "order-7").result()
        console.print("order-7: \(answer).")
        if let run = try await second.workflowRun("order-7") {
            console.print("Its journal, position by position:")
            for position in run.positions {
                let name = position.kind == .sleep ? "" : " '\(position.name)'"
                console.print("  \(position.position). \(position.kind.rawValue)\(name): \(position.record.status)")
            }
        }
        let counts = ran.withLock { $0 }
        console.print(
            "Each step ran once: "
                + ["reserve", "charge", "ship"].map { "\($0) \(counts[$0, default: 0])" }.joined(separator: ", ") + ".")
        try await second.close()
    }

    /// What the run `order-7` does now, as `behaviorkit journal workflows show` says.
    private static func state(_ journal: SQLiteCommandJournal) async throws -> String {
        try await journal.workflowRun("order-7")?.state ?? "missing"
    }
}
