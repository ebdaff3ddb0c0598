import Commands
import DurableMachines
import Logging
import StateMachines

/// The arguments of the checkout's steps, as the journal keeps them.
struct ReserveStock: Codable, Sendable {
    var order: String
    var quantities: [String: Int]
}

struct Charge: Codable, Sendable {
    var order: String
    var cents: Int
}

struct Ship: Codable, Sendable {
    var order: String
    var country: String
}

/// The checkout's three steps, each with an output the journal keeps: reserve stock (→ a
/// `Reservation`), charge (→ a `Payment`), ship (→ a `Shipment`). Each is registered with
/// closures over the partners and the order lifecycles, so that a checkout run from the queue,
/// or taken over after a crash by any process, runs the same code.
///
/// Every step passes `context.key`, its idempotency key, to the partner it calls, and names the
/// events it sends to the order's lifecycle after it: run again after a takeover, it has its
/// effect once, and its events apply once.
struct CheckoutSteps: Sendable {
    static let reserve = "shop.reserve"
    static let charge = "shop.charge"
    static let ship = "shop.ship"

    let orders: OrderLifecycles
    let inventory: Inventory
    let gateway: PaymentGateway
    let carrier: Carrier
    let metrics: ShopMetrics
    let logger: Logger

    func register(in registry: inout CommandRegistry) {
        registry.register(
            Self.reserve, arguments: ReserveStock.self, output: Reservation.self, execute: reserve, compensate: release)
        registry.register(
            Self.charge, arguments: Charge.self, output: Payment.self, execute: charge, compensate: refund)
        registry.register(Self.ship, arguments: Ship.self, output: Shipment.self, execute: ship, compensate: recall)
    }

    private func reserve(_ step: ReserveStock, _ context: DurableContext) async throws -> Reservation {
        do {
            return try inventory.reserve(step.quantities, key: context.key)
        } catch {
            logFailure(of: context, order: step.order, error)
            // The first step failed: the rollback has nothing to undo, so the order ends here.
            try await send(.cancel, to: step.order, context)
            throw error
        }
    }

    /// The last compensation of a rollback: the stock goes back and the order is cancelled.
    private func release(_ step: ReserveStock, _ reservation: Reservation?, _ context: DurableContext) async throws {
        try inventory.release(key: context.key)
        try await send(.cancel, to: step.order, context)
    }

    private func charge(_ step: Charge, _ context: DurableContext) async throws -> Payment {
        try await send(.pay, to: step.order, context)
        let payment: Payment
        do {
            payment = try await gateway.charge(step.cents, order: step.order, idempotencyKey: context.key)
        } catch {
            logFailure(of: context, order: step.order, error)
            throw error
        }
        do {
            try await send(.confirmPayment(id: payment.id), to: step.order, context)
        } catch {
            // The order was cancelled while the provider answered (its payment deadline passed):
            // the step fails, and a step that fails leaves nothing behind.
            try gateway.refund(payment.id)
            throw error
        }
        return payment
    }

    /// Refunds the payment the charge returned. `payment` is `nil` when the process died before
    /// the journal had it (while the provider was answering): the provider is asked by the key.
    private func refund(_ step: Charge, _ payment: Payment?, _ context: DurableContext) throws {
        guard let charged = try payment ?? gateway.payment(idempotencyKey: context.key) else {
            logger.info("nothing was charged", metadata: ["order": "\(step.order)"])
            return
        }
        try gateway.refund(charged.id)
        logger.info(
            "refunded",
            metadata: [
                "order": "\(step.order)", "payment": "\(charged.id)",
                "from": "\(payment == nil ? "provider" : "journal")",
            ])
    }

    private func ship(_ step: Ship, _ context: DurableContext) async throws -> Shipment {
        let payment = try context.output(ofStep: 1, as: Payment.self)  // what the charge returned
        let shipment: Shipment
        do {
            shipment = try carrier.ship(
                order: step.order, to: step.country, invoice: payment.id, idempotencyKey: context.key)
        } catch {
            logFailure(of: context, order: step.order, error)
            throw error
        }
        try await send(.ship(tracking: shipment.tracking), to: step.order, context)
        return shipment
    }

    private func recall(_ step: Ship, _ shipment: Shipment?, _ context: DurableContext) throws {
        try carrier.recall(idempotencyKey: context.key)
    }

    /// Sends `event` to the order's lifecycle under an id naming the step and the event: sent
    /// again by the step run again after a takeover, it answers the step recorded the first time
    /// (`isReplay`) instead of applying twice.
    ///
    /// - Throws: `OrderRefusal` when the lifecycle refuses anything but a `cancel` (an order
    ///   already cancelled, by its payment deadline or a rollback, stays so): the step fails,
    ///   and the checkout rolls back.
    private func send(_ event: OrderEvent, to order: String, _ context: DurableContext) async throws {
        let step = try await orders.send(event, to: order, id: "\(context.key):\(event.kind)")
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
    private func logFailure(of context: DurableContext, order: String, _ error: any Error) {
        logger.warning(
            "checkout step failed", metadata: ["order": "\(order)", "step": "\(context.key)", "error": "\(error)"])
    }
}

/// An event the order's lifecycle refused: the order moved on without the checkout (its payment
/// deadline passed).
struct OrderRefusal: Error, CustomStringConvertible {
    let order: String
    let event: OrderEvent
    let reason: String

    var description: String { "order \(order) refused \(event.kind): \(reason)" }
}
