import Commands
import DurableMachines
import Foundation
import Hummingbird

/// An order as `GET /orders/{id}` shows it: its lifecycle's state, its checkout as the journal
/// has it, and what the partners did for it.
struct OrderView: ResponseEncodable {
    /// The order's checkout workflow, as the journal has its run.
    struct CheckoutView: Encodable {
        /// A position of the run: a step, or the wait for the payment.
        struct Step: Encodable {
            var index: Int
            /// `step` or `receive`.
            var kind: String
            /// `reserve`, `charge`, `payment` (the wait), `confirm`, `ship`.
            var name: String
            /// `pending` (running, or waiting), `done`, `failed`.
            var status: String
            var failureReason: String?
            /// Whether its compensation ran (the run rolled back).
            var compensated: Bool
        }

        var key: String
        /// `pending` (queued, running or waiting), `done`, `compensated`, `failed`.
        var status: String
        /// What the run does now: `running`, `waiting for a message`, `due`, `compensating`, or
        /// how it settled.
        var state: String
        /// The worker that holds it, or settled it.
        var owner: String?
        /// How many times a worker took the run up (each wait lets it go).
        var attempts: Int
        /// Why it rolled back, once it did.
        var rollbackCause: String?
        /// The positions the run took, in order (each is written to the journal once it ran).
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
        checkout = try await shop.checkout.run(of: order.id).map { run in
            let compensated = Set(
                run.compensations.filter { $0.record.status == .compensated || $0.record.status == .done }.map(
                    \.position))
            return CheckoutView(
                key: run.record.id, status: run.record.status.rawValue, state: run.state, owner: run.record.owner,
                attempts: run.record.attempts, rollbackCause: run.rollbackCause,
                steps: run.positions.map { position in
                    CheckoutView.Step(
                        index: position.position, kind: position.kind.rawValue, name: position.name,
                        status: position.record.status.rawValue, failureReason: position.record.failureReason,
                        compensated: compensated.contains(position.position))
                })
        }
    }
}

/// One line of `GET /orders`.
struct OrderSummary: ResponseEncodable {
    var id: String
    var state: String
}
