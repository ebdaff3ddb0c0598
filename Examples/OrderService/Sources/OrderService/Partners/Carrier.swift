import Foundation

/// A parcel handed to the carrier: what the ship step returns.
struct Shipment: Codable, Hashable, Sendable {
    var tracking: String
    var order: String
    var country: String
    /// The payment the parcel's invoice names (the charge step's output).
    var invoice: String
    var recalled = false
}

/// The carrier (simulated): ships by idempotency key, and serves every country but Antarctica
/// (`AQ`), so that an order shipped there fails at its last step and is rolled back.
final class Carrier: Sendable {
    static let unserved: Set = ["AQ"]

    private let file: JSONFile<[String: Shipment]>

    init(file url: URL) throws {
        file = try JSONFile(url, initial: [:])
    }

    /// - Throws: `PartnerError` when no carrier serves `country`.
    func ship(order: String, to country: String, invoice: String, idempotencyKey key: String) throws -> Shipment {
        guard !Self.unserved.contains(country) else { throw PartnerError("no carrier delivers to \(country)") }
        return try file.update { shipments in
            if let existing = shipments[key] { return existing }
            let tracking = "TRK-\(String(UInt32.random(in: 0...UInt32.max), radix: 16).uppercased())"
            let shipment = Shipment(tracking: tracking, order: order, country: country, invoice: invoice)
            shipments[key] = shipment
            return shipment
        }
    }

    /// Calls back the parcel shipped under `key`, if any.
    func recall(idempotencyKey key: String) throws {
        try file.update { shipments in shipments[key]?.recalled = true }
    }

    /// The parcel of `order`, if any.
    func shipment(order: String) throws -> Shipment? {
        try file.read { $0.values.first { $0.order == order } }
    }
}
