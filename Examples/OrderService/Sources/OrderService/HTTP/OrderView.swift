import Commands
import DurableMachines
import Foundation
import Hummingbird

/// An order as `GET /orders/{id}` shows it: its lifecycle's state, its checkout as the journal
/// has it, and what the partners did for it.
struct OrderView: ResponseEncodable {
    struct CheckoutView: Encodable {
        struct Step: Encodable {
            var index: Int
            var kind: String
            var status: String
            var failureReason: String?
        }

        var key: String
        /// `pending` (queued or running), `done`, `compensated`, `failed`.
        var status: String
        /// The worker that holds it, or settled it.
        var owner: String?
        /// 1 for the first run; 2 or more when a worker took it over after another stopped.
        var attempts: Int
        var recovery: String
        /// The steps that finished (each is written to the journal once it ran).
        var steps: [Step]
    }

    var id: String
    var state: String
    var country: String
    var lines: [OrderLine]
    var totalCents: Int
    var placedAt: String
    var paymentID: String?
    var tracking: String?
    var reminders: Int
    /// The lifecycle's steps, oldest first: what caused each, and the state it left
    /// (`event pay → paying`, `timer unpaid#0@1 → cancelled`, `event cancel: refused`).
    var history: [String]
    var checkout: CheckoutView?
    var payments: [Payment]
    var shipment: Shipment?

    init(_ instance: DurableInstance<OrderState, OrderProgress>, shop: Shop) async throws {
        let progress = instance.context
        let order = progress.order
        id = order.id
        state = instance.state.rawValue
        country = order.country
        lines = order.lines
        totalCents = order.totalCents
        placedAt = order.placedAt.formatted(.iso8601)
        paymentID = progress.paymentID
        tracking = progress.tracking
        reminders = progress.reminders
        history = try await shop.orders.history(of: order.id).map { step in
            let state = step.configuration.last.map { "\($0)" } ?? ""
            return step.isRefusal ? "\(step.trigger): refused" : "\(step.trigger) → \(state)"
        }
        payments = try shop.gateway.payments(order: order.id)
        shipment = try shop.carrier.shipment(order: order.id)
        let (record, steps) = try await shop.checkout.records(of: order.id)
        checkout = record.map { record in
            CheckoutView(
                key: record.id, status: record.status.rawValue, owner: record.owner, attempts: record.attempts,
                recovery: order.recovery.rawValue,
                steps: steps.map { step in
                    CheckoutView.Step(
                        index: Int(step.id.split(separator: "/").last ?? "") ?? -1, kind: step.entry.kind,
                        status: step.status.rawValue, failureReason: step.failureReason)
                })
        }
    }
}

/// One line of `GET /orders`.
struct OrderSummary: ResponseEncodable {
    var id: String
    var state: String
}
