import Commands

/// The checkout as one durable workflow: reserve the stock, charge, wait for the payment
/// provider's confirmation until the deadline, then ship. A step with a compensation joins the
/// saga: when a later step fails, or no confirmation comes in time, the finished steps are
/// compensated newest first — the payment refunded, the stock released and the order cancelled.
///
/// Each step's output is written to the journal: a run taken up again after a crash answers the
/// finished steps from there and goes on, so each step runs once. The wait for the confirmation
/// is in the journal too: the worker lets the run go while it waits, and any worker takes it up
/// when the message comes or the deadline passes.
enum CheckoutWorkflow {
    static let name = "checkout"

    static func make(steps: CheckoutSteps, paymentDeadline: Duration) -> Workflow<Order, Shipment> {
        Workflow(name) { context, order in
            try await context.step("reserve") { step in
                try await steps.reserve(order, step)
            } compensate: { _, reservation in
                try await steps.release(order, reservation)
            }
            let payment = try await context.step("charge") { step in
                try await steps.charge(order, step)
            } compensate: { _, payment in
                try steps.refund(order, payment)
            }
            let confirmation = try await context.receive(
                PaymentConfirmation.self, topic: PaymentConfirmation.topic, timeout: paymentDeadline)
            guard let confirmation else { throw PaymentDeadlinePassed(order: order.id, deadline: paymentDeadline) }
            try await context.step("confirm") { step in try await steps.confirm(order, payment, confirmation, step) }
            return try await context.step("ship") { step in try await steps.ship(order, payment, step) }
        }
    }
}
