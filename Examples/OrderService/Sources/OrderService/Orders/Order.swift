import Commands
import Foundation
import StateMachines

/// One line of an order: a product, how many, and the price it was sold at.
struct OrderLine: Codable, Hashable, Sendable {
    var sku: String
    var quantity: Int
    var unitCents: Int
}

/// An order as it was placed. Its progress lives in its lifecycle (`OrderBook`).
struct Order: Codable, Hashable, Sendable {
    /// The order's id, also the key of its checkout in the journal (`checkout-<id>`).
    var id: String
    var lines: [OrderLine]
    /// Where it ships to (ISO 3166 code).
    var country: String
    /// How a worker that takes the checkout over after a crash settles it; kept with the order
    /// so that the checkout it enqueues is the same every time.
    var recovery: DurableTransactionRecovery
    var placedAt: Date

    /// The total, in cents. Quantities and prices are bounded when the order is placed.
    var totalCents: Int { lines.reduce(0) { $0 + $1.quantity * $1.unitCents } }
}

/// An order and its lifecycle's snapshot, as `OrderFiles` keeps it.
struct SavedOrder: Codable, Sendable {
    var order: Order
    var lifecycle: MachineSnapshot<OrderState, OrderProgress>
}
