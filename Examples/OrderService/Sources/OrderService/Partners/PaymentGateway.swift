import Foundation

/// A payment: what the charge step returns, and what its compensation refunds.
struct Payment: Codable, Hashable, Sendable {
    var id: String
    var order: String
    var cents: Int
    var chargedAt: Date
    var refunded = false
    /// Whether the provider's webhook delivered its confirmation (`PaymentWebhooks`).
    var confirmed = false
}

/// The payment provider (simulated): charges by idempotency key, so that a charge run again
/// after a takeover returns the first payment instead of charging twice, and confirms each
/// payment `latency` after it charged it, by a webhook (`PaymentWebhooks`) that sends the
/// checkout a `PaymentConfirmation`.
///
/// With a latency of a few seconds, a process killed during the checkout dies while its run
/// waits for the confirmation; with a latency past the payment deadline, the checkout rolls back.
/// `chargeLatency` is how long a new charge takes to answer once the money was taken: a process
/// killed then dies in the charge step, after the charge and before the journal had its output.
final class PaymentGateway: Sendable {
    private let file: JSONFile<[String: Payment]>
    let latency: Duration
    let chargeLatency: Duration

    init(file url: URL, latency: Duration, chargeLatency: Duration = .zero) throws {
        file = try JSONFile(url, initial: [:])
        self.latency = latency
        self.chargeLatency = chargeLatency
    }

    /// Charges `cents` for `order` once per `key`: the same key answers the first payment, at once.
    func charge(
        _ cents: Int, order: String, idempotencyKey key: String, at now: Date = Date()
    ) async throws -> Payment {
        let (payment, isNew) = try file.update { payments -> (Payment, Bool) in
            if let existing = payments[key] { return (existing, false) }
            let payment = Payment(
                id: "pay-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))", order: order, cents: cents,
                chargedAt: now)
            payments[key] = payment
            return (payment, true)
        }
        if isNew, chargeLatency > .zero { try await Task.sleep(for: chargeLatency) }
        return payment
    }

    /// The payments whose confirmation is due at `now` and not yet delivered (refunded ones
    /// are not confirmed).
    func dueConfirmations(at now: Date) throws -> [Payment] {
        let seconds = Double(latency.components.seconds) + Double(latency.components.attoseconds) / 1e18
        return try file.read { payments in
            payments.values.filter { payment in
                !payment.confirmed && !payment.refunded && payment.chargedAt.addingTimeInterval(seconds) <= now
            }
            .sorted { $0.id < $1.id }
        }
    }

    /// Notes that the confirmation of payment `id` was delivered.
    func markConfirmed(_ id: String) throws {
        try file.update { payments in
            guard let key = payments.first(where: { $0.value.id == id })?.key else { return }
            payments[key]?.confirmed = true
        }
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
