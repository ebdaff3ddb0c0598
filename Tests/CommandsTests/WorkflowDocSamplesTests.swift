import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Testing

/// The sample of the "A workflow in a server" article, as written there but for the journal
/// and the worker's clock (in memory and manual here): it must compile and do what the article
/// says.
struct WorkflowDocSamplesTests {
    struct Order: Codable, Sendable { var id: Int, cents: Int }
    struct Payment: Codable, Sendable { var id: String }
    struct Receipt: Codable, Sendable, Equatable { var order: Int, state: String }

    final class Shop: Sendable {
        let log = LockedValue<[String]>([])
        func charge(_ cents: Int, idempotencyKey: String) async throws -> String {
            log.withLock { $0.append("charge \(cents) \(idempotencyKey)") }
            return "charge-1"
        }
        func cancel(_ charge: String) async throws { log.withLock { $0.append("cancel \(charge)") } }
        func remind(_ order: Int) async throws { log.withLock { $0.append("remind \(order)") } }
        func page(_ cents: Int) async throws -> String {
            log.withLock { $0.append("page \(cents)") }
            return "https://pay.example/\(cents)"
        }
        func reserve(_ order: Int) async throws {
            log.withLock { $0.append("reserve \(order)") }
            throw SoldOut()
        }
        func pack(_ order: Int) async throws -> String {
            log.withLock { $0.append("pack \(order)") }
            return "box-\(order)"
        }
        func label(_ box: String) async throws -> String {
            let down = log.withLock { log in
                log.append("label \(box)")
                return !log.contains("carrier back")
            }
            if down { throw SoldOut() }
            return "label-\(box)"
        }
        func ship(_ order: Int, paid: Payment) async throws -> Receipt {
            log.withLock { $0.append("ship \(order) \(paid.id)") }
            return Receipt(order: order, state: "shipped")
        }
    }

    /// A manual clock, an in-memory journal on it, an invoker, and a shop that logs its calls.
    func bench() -> (ManualClock, InMemoryCommandJournal, JournaledInvoker, Shop) {
        let clock = ManualClock()
        let journal = InMemoryCommandJournal(clock: clock)
        return (clock, journal, JournaledInvoker(journal: journal, clock: clock), Shop())
    }

    @Test func aWorkflowInAServer() async throws {
        let (clock, journal, invoker, shop) = bench()
        let (bank, mail, warehouse) = (shop, shop, shop)
        let order = Order(id: 42, cents: 990)

        let checkout = Workflow("checkout") { (context, order: Order) -> Receipt in
            let charge = try await context.step("charge") { step in
                try await bank.charge(order.cents, idempotencyKey: step.key)
            }
            guard let paid = try await context.receive(Payment.self, topic: "paid", timeout: .seconds(86_400)) else {
                try await context.step("cancel") { _ in try await bank.cancel(charge) }
                return Receipt(order: order.id, state: "expired")
            }
            try await context.sleep(for: .seconds(3_600))
            try await context.step("remind") { _ in try await mail.remind(order.id) }
            return try await context.step("ship") { _ in try await warehouse.ship(order.id, paid: paid) }
        }
        var registry = WorkflowRegistry()
        registry.register(checkout)
        let workflows = Workflows(registry, queue: CommandQueue("workflows", journal: journal), invoker: invoker)
        let worker = Task { await workflows.run() }  // in every process that runs workflows

        let handle = try await workflows.start(checkout, key: "order-42", input: order)  // a request handler
        try await workflows.send(Payment(id: "pay-1"), to: "order-42", topic: "paid", id: "pay-1")  // a webhook
        let result = Task { try await handle.result() }

        // The manual clock moves ten minutes at a time until the run is settled (the hour's sleep).
        for _ in 0..<10_000 where try await handle.status() == .pending {
            await clock.advance(by: .seconds(600))
            try await Task.sleep(for: .milliseconds(2))
        }
        let receipt = try await result.value
        worker.cancel()
        await worker.value
        #expect(receipt == Receipt(order: 42, state: "shipped"))
        #expect(shop.log.withLock { $0 } == ["charge 990 order-42/0", "remind 42", "ship 42 pay-1"])
        #expect(clock.now.offset >= .seconds(3_600))
    }

    struct SoldOut: Error {}

    /// "Undoing what a failed run did" and "Running a stopped run again from a step".
    @Test func compensationsAndAFork() async throws {
        let (_, journal, invoker, shop) = bench()
        let (bank, warehouse, carrier) = (shop, shop, shop)
        let order = Order(id: 42, cents: 990)

        let book = Workflow("book", compensation: CompensationPolicy(retries: 2)) { (context, order: Order) -> String in
            let charge = try await context.step("charge") { step in
                try await bank.charge(order.cents, idempotencyKey: step.key)
            } compensate: { _, charge in
                try await bank.cancel(charge)
            }
            try await context.step("reserve") { _ in try await warehouse.reserve(order.id) }  // fails: sold out
            return charge
        }
        let shipping = Workflow("shipping") { (context, order: Order) -> String in
            let box = try await context.step("pack") { _ in try await warehouse.pack(order.id) }
            // failed: the carrier was down
            return try await context.step("label") { _ in try await carrier.label(box) }
        }
        var registry = WorkflowRegistry()
        registry.register(book)
        registry.register(shipping)
        let workflows = Workflows(registry, queue: CommandQueue("workflows", journal: journal), invoker: invoker)
        let booked = try await workflows.start(book, key: "order-42", input: order)
        try await workflows.runDue()
        await #expect(throws: WorkflowError.self) { try await booked.result() }
        #expect(try await booked.status() == .compensated)
        try await workflows.start(shipping, key: "ship-42", input: order)
        try await workflows.runDue()
        shop.log.withLock { $0.append("carrier back") }

        // Once the carrier is back:
        let retried = try await workflows.fork(shipping, key: "ship-42", from: 1, as: "ship-42-again")
        try await workflows.runDue()
        let label = try await retried.result()  // packed once: the copy answered "pack"

        #expect(label == "label-box-42")
        #expect(
            shop.log.withLock { $0 } == [
                "charge 990 order-42/0", "reserve 42", "cancel charge-1", "pack 42", "label box-42", "carrier back",
                "label box-42",
            ])
    }

    @Test func waitingForAnEventInARequestHandler() async throws {
        let clock = ManualClock()
        let journal = InMemoryCommandJournal(clock: clock)
        let invoker = JournaledInvoker(journal: journal, clock: clock)
        let bank = Shop()
        let order = Order(id: 42, cents: 990)
        var registry = WorkflowRegistry()

        let pay = Workflow("pay") { (context, order: Order) -> String in
            let page = try await context.step("page") { _ in try await bank.page(order.cents) }
            try await context.publish(page, as: "payment-page")
            return try await context.receive(String.self, topic: "paid", timeout: .seconds(86_400)) ?? "expired"
        }
        registry.register(pay)
        let workflows = Workflows(registry, queue: CommandQueue("workflows", journal: journal), invoker: invoker)
        let worker = Task { await workflows.run() }
        _ = try await workflows.start(pay, key: "pay-42", input: order)  // the request handler
        let page = try await workflows.event(of: "pay-42", key: "payment-page", as: String.self, timeout: .seconds(5))

        worker.cancel()
        await worker.value
        #expect(page == "https://pay.example/990")
        #expect(bank.log.withLock { $0 } == ["page 990"])
        #expect(clock.now.offset == .zero)
    }
}
