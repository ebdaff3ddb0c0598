import BehaviorKitSQLite
import Chains
import Commands
import Foundation
import Logging
import StateMachines

/// Everything the service is made of, opened on a data folder:
///
/// ```text
/// <data>/journal.sqlite   the command journal: checkouts and reminders, queued and run
/// <data>/orders/<id>.json each order with its lifecycle's snapshot
/// <data>/partners/        the simulated warehouse, payment provider and carrier
/// <data>/server.port      the port the server listens on, once it does
/// ```
struct Shop: Sendable {
    let journal: SQLiteCommandJournal
    let invoker: JournaledInvoker
    let book: OrderBook
    let products: TieredLookup<String, Product>
    let inventory: Inventory
    let gateway: PaymentGateway
    let carrier: Carrier
    let checkout: Checkout
    let checkoutWorker: QueueWorker
    let reminderWorker: QueueWorker
    let metrics: ShopMetrics
    let options: Options
    let logger: Logger

    /// Opens the journal and the partners, and restores the orders from their snapshots.
    init(options: Options, logger: Logger) throws {
        let data = URL(fileURLWithPath: options.data, isDirectory: true)
        let partners = data.appendingPathComponent("partners", isDirectory: true)
        try FileManager.default.createDirectory(at: partners, withIntermediateDirectories: true)
        self.options = options
        self.logger = logger
        metrics = ShopMetrics()
        journal = try SQLiteCommandJournal(path: data.appendingPathComponent("journal.sqlite").path)
        book = OrderBook(
            files: try OrderFiles(folder: data.appendingPathComponent("orders", isDirectory: true)), metrics: metrics,
            logger: logger)
        products = ProductLookup.make(catalogLatency: options.catalogLatency)
        inventory = try Inventory(
            file: partners.appendingPathComponent("inventory.json"),
            initialStock: Dictionary(uniqueKeysWithValues: Product.catalog.map { ($0.sku, $0.initialStock) }))
        gateway = try PaymentGateway(
            file: partners.appendingPathComponent("payments.json"), latency: options.paymentLatency)
        carrier = try Carrier(file: partners.appendingPathComponent("shipments.json"))

        let reminders = Reminders(
            queue: CommandQueue(Reminders.queueName, journal: journal), delay: options.reminderDelay)
        var registry = CommandRegistry()
        CheckoutSteps(
            book: book, inventory: inventory, gateway: gateway, carrier: carrier, reminders: reminders, logger: logger
        ).register(in: &registry)
        Reminders.register(in: &registry, book: book, logger: logger)
        invoker = JournaledInvoker(
            journal: journal, registry: registry, owner: JournaledInvoker.uniqueOwner(prefix: "orderservice"),
            leaseDuration: options.lease)
        checkout = Checkout(queue: CommandQueue(Checkout.queueName, journal: journal), invoker: invoker)
        checkoutWorker = QueueWorker(checkout.queue, invoker: invoker, slots: 4, pollInterval: .milliseconds(200))
        reminderWorker = QueueWorker(reminders.queue, invoker: invoker, slots: 1, pollInterval: .seconds(1))

        let restored = try book.restore()
        logger.info(
            "opened", metadata: ["data": "\(data.path)", "owner": "\(invoker.owner)", "orders": "\(restored.count)"])
    }

    /// Enqueues the checkout of every order still `placed`: a process killed between saving an
    /// order and enqueuing its checkout left it without one. Enqueuing one that exists changes
    /// nothing; one that cannot be enqueued is logged, and the others still are.
    func enqueueMissingCheckouts() async {
        for entry in book.all where entry.lifecycle.state == .placed {
            do {
                try await checkout.enqueue(entry.order)
            } catch {
                logger.error(
                    "cannot enqueue the checkout", metadata: ["order": "\(entry.order.id)", "error": "\(error)"])
            }
        }
    }
}
