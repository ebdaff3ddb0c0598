import Foundation

/// Stock reserved for an order: what the reserve step returns and its compensation releases.
struct Reservation: Codable, Hashable, Sendable {
    var key: String
    var quantities: [String: Int]
}

/// The warehouse (simulated): stock per product, and reservations by idempotency key.
final class Inventory: Sendable {
    struct Books: Codable, Sendable {
        var stock: [String: Int]
        var reservations: [String: Reservation] = [:]
    }

    private let file: JSONFile<Books>

    init(file url: URL, initialStock: [String: Int]) throws {
        file = try JSONFile(url, initial: Books(stock: initialStock))
    }

    func stock(of sku: String) throws -> Int? {
        try file.read { $0.stock[sku] }
    }

    /// Reserves every quantity or none; the same key reserves once.
    ///
    /// - Throws: `PartnerError` naming the product that is short.
    func reserve(_ quantities: [String: Int], key: String) throws -> Reservation {
        try file.update { books in
            if let existing = books.reservations[key] { return existing }
            for (sku, quantity) in quantities.sorted(by: { $0.key < $1.key }) {
                let available = books.stock[sku] ?? 0
                guard available >= quantity else {
                    throw PartnerError("out of stock: \(quantity) × \(sku) wanted, \(available) left")
                }
                books.stock[sku] = available - quantity
            }
            let reservation = Reservation(key: key, quantities: quantities)
            books.reservations[key] = reservation
            return reservation
        }
    }

    /// Puts the stock of the reservation `key` back; does nothing when there is none (it was
    /// released already, or never made).
    @discardableResult
    func release(key: String) throws -> Reservation? {
        try file.update { books in
            guard let reservation = books.reservations.removeValue(forKey: key) else { return nil }
            for (sku, quantity) in reservation.quantities { books.stock[sku, default: 0] += quantity }
            return reservation
        }
    }
}
