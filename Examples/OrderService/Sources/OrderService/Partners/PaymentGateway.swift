import Foundation

/// A payment: what the charge step returns, and what its compensation refunds.
struct Payment: Codable, Hashable, Sendable {
    var id: String
    var order: String
    var cents: Int
    var refunded = false
}

/// The payment provider (simulated): charges by idempotency key, so that a charge run again
/// after a takeover returns the first payment instead of charging twice.
///
/// `latency` is how long its answer takes once it has charged: with a few seconds, a process
/// killed during the checkout dies after the money was taken and before the journal learned
/// the payment's id — the case recovery must handle by asking for the payment by its key.
final class PaymentGateway: Sendable {
    private let file: JSONFile<[String: Payment]>
    let latency: Duration

    init(file url: URL, latency: Duration) throws {
        file = try JSONFile(url, initial: [:])
        self.latency = latency
    }

    func charge(_ cents: Int, order: String, idempotencyKey key: String) async throws -> Payment {
        let (payment, isNew) = try file.update { payments -> (Payment, Bool) in
            if let existing = payments[key] { return (existing, false) }
            let payment = Payment(
                id: "pay-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))", order: order, cents: cents)
            payments[key] = payment
            return (payment, true)
        }
        if isNew, latency > .zero { try await Task.sleep(for: latency) }
        return payment
    }

    /// The payment made under `key`, if any.
    func payment(idempotencyKey key: String) throws -> Payment? {
        try file.read { $0[key] }
    }

    /// The payments of `order`.
    func payments(order: String) throws -> [Payment] {
        try file.read { $0.values.filter { $0.order == order }.sorted { $0.id < $1.id } }
    }

    /// Refunds the payment `id`; refunding twice changes nothing.
    ///
    /// - Throws: `PartnerError` when there is no such payment.
    func refund(_ id: String) throws {
        try file.update { payments in
            guard let key = payments.first(where: { $0.value.id == id })?.key else {
                throw PartnerError("no payment \(id) to refund")
            }
            payments[key]?.refunded = true
        }
    }
}
