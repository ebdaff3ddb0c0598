/// The payment provider's confirmation that a payment went through: the message the checkout
/// waits for, on the topic `payment`, sent once per payment id (by the provider's webhook,
/// `PaymentWebhooks`, or `POST /orders/{id}/payment`).
struct PaymentConfirmation: Codable, Hashable, Sendable {
    static let topic = "payment"

    var payment: String
}

/// The payment was not confirmed before the order's deadline: the checkout fails, and its
/// finished steps compensate (refund, release the stock, cancel the order).
struct PaymentDeadlinePassed: Error, CustomStringConvertible {
    let order: String
    let deadline: Duration

    var description: String { "order \(order): no payment confirmation within \(deadline)" }
}
