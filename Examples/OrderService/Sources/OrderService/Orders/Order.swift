import Foundation

/// One line of an order: a product, how many, and the price it was sold at.
struct OrderLine: Codable, Hashable, Sendable {
    var sku: String
    var quantity: Int
    var unitCents: Int
}

/// An order as it was placed. It is kept in its lifecycle's context (`OrderProgress`), with what
/// its checkout recorded.
struct Order: Codable, Hashable, Sendable {
    /// The order's id: the key of its lifecycle, and of its checkout's run in the journal (`checkout-<id>`).
    var id: String
    var lines: [OrderLine]
    /// Where it ships to (ISO 3166 code).
    var country: String
    var placedAt: Date

    /// The total, in cents. Quantities and prices are bounded when the order is placed.
    var totalCents: Int { lines.reduce(0) { $0 + $1.quantity * $1.unitCents } }
}
