import Commands
import DurableMachines
import Logging
import StateMachines

/// What the checkout's steps do, over the partners and the order lifecycles: reserve the stock
/// (→ a `Reservation`, released by its compensation), charge (→ a `Payment`, refunded by its
/// compensation), record the confirmed payment, ship (→ a `Shipment`). `CheckoutWorkflow` calls
/// them, each inside a step of the run.
///
/// Every step passes `step.key`, its idempotency key (`checkout-<id>/<position>`), to the
/// partner it calls, and names the events it sends to the order's lifecycle after it: run again
/// after a takeover (the process died before the journal had its output), it has its effect
/// once, and its events apply once.
struct CheckoutSteps: Sendable {
    let orders: OrderLifecycles
    let inventory: Inventory
    let gateway: PaymentGateway
    let carrier: Carrier
    let metrics: ShopMetrics
    let logger: Logger

    func reserve(_ order: Order, _ step: DurableContext) async throws -> Reservation {
        var quantities: [String: Int] = [:]
        for line in order.lines { quantities[line.sku, default: 0] += line.quantity }
        do {
            return try inventory.reserve(quantities, key: step.key)
        } catch {
            logFailure(of: step, order: order.id, error)
            // The first step failed: the rollback has nothing to undo, so the order ends here.
            try await send(.cancel, to: order.id, id: "\(step.key):cancel")
            throw error
        }
    }

    /// The last compensation of a rollback: the stock goes back and the order is cancelled.
    func release(_ order: Order, _ reservation: Reservation) async throws {
        try inventory.release(key: reservation.key)
        try await send(.cancel, to: order.id, id: "\(reservation.key):release")
    }

    /// Moves the order to `paying` and charges it; the provider confirms the payment later, as
    /// a message to the checkout.
    func charge(_ order: Order, _ step: DurableContext) async throws -> Payment {
        try await send(.pay, to: order.id, id: "\(step.key):pay")
        do {
            return try await gateway.charge(order.totalCents, order: order.id, idempotencyKey: step.key)
        } catch {
            logFailure(of: step, order: order.id, error)
            throw error
        }
    }

    /// Refunds the payment the charge returned (as the journal recorded it).
    func refund(_ order: Order, _ payment: Payment) throws {
        try gateway.refund(payment.id)
        logger.info("refunded", metadata: ["order": "\(order.id)", "payment": "\(payment.id)", "from": "journal"])
    }

    /// Records the confirmed payment in the order's lifecycle: `paying` → `paid`.
    ///
    /// - Throws: `PartnerError` when the confirmation names another payment than the charge's.
    func confirm(
        _ order: Order, _ payment: Payment, _ confirmation: PaymentConfirmation, _ step: DurableContext
    )
        async throws
    {
        guard confirmation.payment == payment.id else {
            throw PartnerError("payment \(confirmation.payment) confirmed, \(payment.id) charged")
        }
        try await send(.confirmPayment(id: payment.id), to: order.id, id: "\(step.key):confirmPayment")
    }

    func ship(_ order: Order, _ payment: Payment, _ step: DurableContext) async throws -> Shipment {
        let shipment: Shipment
        do {
            shipment = try carrier.ship(
                order: order.id, to: order.country, invoice: payment.id, idempotencyKey: step.key)
        } catch {
            logFailure(of: step, order: order.id, error)
            throw error
        }
        try await send(.ship(tracking: shipment.tracking), to: order.id, id: "\(step.key):ship")
        return shipment
    }

    /// Sends `event` to the order's lifecycle under `id`, which names the step and the event:
    /// sent again by the step run again after a takeover, it answers the step recorded the first
    /// time (`isReplay`) instead of applying twice.
    ///
    /// - Throws: `OrderRefusal` when the lifecycle refuses anything but a `cancel` (an order
    ///   already cancelled stays so): the step fails, and the checkout rolls back.
    private func send(_ event: OrderEvent, to order: String, id: String) async throws {
        let step = try await orders.send(event, to: order, id: id)
        if !step.isReplay {
            metrics.took(step)
            for transition in step.transitions {
                logger.info("order \(transition)", metadata: ["order": "\(order)", "state": "\(transition.target)"])
            }
        }
        if let refusal = step.outcome?.refusal, event.kind != .cancel {
            throw OrderRefusal(order: order, event: event, reason: "\(refusal)")
        }
    }

    /// The journal keeps why a step failed; the log says it too, when it happens.
    private func logFailure(of step: DurableContext, order: String, _ error: any Error) {
        logger.warning(
            "checkout step failed", metadata: ["order": "\(order)", "step": "\(step.key)", "error": "\(error)"])
    }
}

/// An event the order's lifecycle refused: the order moved on without the checkout.
struct OrderRefusal: Error, CustomStringConvertible {
    let order: String
    let event: OrderEvent
    let reason: String

    var description: String { "order \(order) refused \(event.kind): \(reason)" }
}
