import BehaviorKitPostgres
import BehaviorKitSQLite
import Chains
import Commands
import DurableMachines
import Foundation
import Logging

/// Everything the service is made of, opened on a data folder:
///
/// ```text
/// <data>/journal.sqlite   the command journal: the checkout workflows' runs, their steps and
///                         messages, and the reminders, queued and run
/// <data>/orders.sqlite    the order lifecycles: each order, its state, history and timers
/// <data>/partners/        the simulated warehouse, payment provider and carrier
/// <data>/server.port      the port the server listens on, once it does
/// ```
///
/// With `--database postgres://…`, the journal and the lifecycles are in that database instead,
/// and any number of processes share them.
struct Shop: Sendable {
    let journal: any CommandJournal
    let orders: OrderLifecycles
    let invoker: JournaledInvoker
    let products: TieredLookup<String, Product>
    let inventory: Inventory
    let gateway: PaymentGateway
    let carrier: Carrier
    let checkout: Checkout
    let webhooks: PaymentWebhooks
    let reminderWorker: QueueWorker
    let metrics: ShopMetrics
    let options: Options
    let logger: Logger

    /// Opens the journal, the lifecycles' store and the partners.
    init(options: Options, logger: Logger) async throws {
        let data = URL(fileURLWithPath: options.data, isDirectory: true)
        let partners = data.appendingPathComponent("partners", isDirectory: true)
        try FileManager.default.createDirectory(at: partners, withIntermediateDirectories: true)
        self.options = options
        self.logger = logger
        metrics = ShopMetrics()
        let store: any MachineStore
        if let url = options.database {
            journal = try await PostgresCommandJournal(url: url, logger: logger)
            store = try await PostgresMachineStore(url: url, logger: logger)
        } else {
            journal = try SQLiteCommandJournal(path: data.appendingPathComponent("journal.sqlite").path)
            store = try SQLiteMachineStore(path: data.appendingPathComponent("orders.sqlite").path)
        }
        orders = OrderLifecycle.machine(store: store, journal: journal, options: options, logger: logger)
        products = ProductLookup.make(catalogLatency: options.catalogLatency)
        inventory = try Inventory(
            file: partners.appendingPathComponent("inventory.json"),
            initialStock: Dictionary(uniqueKeysWithValues: Product.catalog.map { ($0.sku, $0.initialStock) }))
        gateway = try PaymentGateway(
            file: partners.appendingPathComponent("payments.json"), latency: options.paymentLatency,
            chargeLatency: options.chargeLatency)
        carrier = try Carrier(file: partners.appendingPathComponent("shipments.json"))

        var registry = CommandRegistry()
        Reminders.register(in: &registry, orders: orders, logger: logger)
        invoker = JournaledInvoker(
            journal: journal, registry: registry, owner: JournaledInvoker.uniqueOwner(prefix: "orderservice"),
            leaseDuration: options.lease)
        let steps = CheckoutSteps(
            orders: orders, inventory: inventory, gateway: gateway, carrier: carrier, metrics: metrics, logger: logger)
        checkout = Checkout(
            steps: steps, queue: CommandQueue(Checkout.queueName, journal: journal), invoker: invoker,
            paymentDeadline: options.paymentDeadline)
        webhooks = PaymentWebhooks(gateway: gateway, checkout: checkout, logger: logger)
        reminderWorker = QueueWorker(
            CommandQueue(Reminders.queueName, journal: journal), invoker: invoker, slots: 1, pollInterval: .seconds(1))
        logger.info(
            "opened",
            metadata: [
                "data": "\(data.path)", "database": "\(options.database == nil ? "sqlite" : "postgres")",
                "owner": "\(invoker.owner)",
            ])
    }
}
