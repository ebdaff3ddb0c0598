import BehaviorKitTesting
import Commands
import DurableMachines
import Foundation
import Logging

@testable import OrderService

/// A checkout on the in-memory journal and lifecycle store, with partners in a folder of its
/// own and time on a `ManualClock`: `worker(_:)` makes the `Checkout` of one process.
struct CheckoutFixture {
    static let deadline: Duration = .seconds(60)

    let clock = ManualClock()
    let journal: InMemoryCommandJournal
    let orders: OrderLifecycles
    let inventory: Inventory
    let gateway: PaymentGateway
    let carrier: Carrier
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("orderservice-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        journal = InMemoryCommandJournal(clock: clock)
        orders = OrderLifecycle.machine(
            store: InMemoryMachineStore(), journal: journal, options: try Options([]), logger: Logger(label: "test"))
        inventory = try Inventory(file: folder.appendingPathComponent("inventory.json"), initialStock: ["mug": 10])
        gateway = try PaymentGateway(file: folder.appendingPathComponent("payments.json"), latency: .zero)
        carrier = try Carrier(file: folder.appendingPathComponent("shipments.json"))
    }

    /// The checkout as the process `owner` runs it.
    func worker(_ owner: String) -> Checkout {
        let steps = CheckoutSteps(
            orders: orders, inventory: inventory, gateway: gateway, carrier: carrier, metrics: ShopMetrics(),
            logger: Logger(label: "test"))
        return Checkout(
            steps: steps, queue: CommandQueue(Checkout.queueName, journal: journal),
            invoker: JournaledInvoker(journal: journal, owner: owner, leaseDuration: .seconds(30), clock: clock),
            paymentDeadline: Self.deadline, pollInterval: .seconds(1))
    }

    /// An order of `mugs` mugs to `country`, placed: its lifecycle started, as `POST /orders` does.
    func place(_ id: String, mugs: Int = 2, to country: String = "DE") async throws -> Order {
        let order = Order(
            id: id, lines: [OrderLine(sku: "mug", quantity: mugs, unitCents: 1_200)], country: country,
            placedAt: Date(timeIntervalSince1970: 0))
        _ = try await orders.start(id, context: OrderProgress(order: order))
        return order
    }

    /// The events the order's lifecycle took, oldest first (each once, however often it was sent).
    func events(of id: String) async throws -> [OrderEvent.Kind] {
        try await orders.history(of: id).compactMap { step in
            guard case .event(let event) = step.trigger else { return nil }
            return event.kind
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
