import Commands
import DurableMachines
import Foundation
import Hummingbird
import Logging

/// `POST /orders` places an order and starts its checkout workflow; `POST /orders/{id}/payment`
/// is the payment provider's confirmation; `GET /orders/{id}` shows one; `GET /orders` lists
/// them, state by state.
enum OrderRoutes {
    static func add(to router: Router<BasicRequestContext>, shop: Shop) {
        router.post("orders") { request, context in
            try await place(request, context: context, shop: shop)
        }
        router.post("orders/{id}/payment") { request, context in
            let id = try context.parameters.require("id")
            let confirmation = try await request.decode(as: PaymentConfirmation.self, context: context)
            guard try await shop.orders.instance(id) != nil else {
                throw HTTPError(.notFound, message: "no order '\(id)'")
            }
            try await shop.checkout.confirm(confirmation, order: id)
            return Response(status: .accepted)
        }
        router.get("orders/{id}") { _, context in
            let id = try context.parameters.require("id")
            guard let instance = try await shop.orders.instance(id) else {
                throw HTTPError(.notFound, message: "no order '\(id)'")
            }
            return try await OrderView(instance, shop: shop)
        }
        router.get("orders") { _, _ in
            var orders: [OrderSummary] = []
            for state in OrderState.leaves {
                var page = try await shop.orders.keys(in: state)
                while !page.isEmpty {
                    orders += page.map { OrderSummary(id: $0.key, state: state.rawValue) }
                    page = try await shop.orders.keys(in: state, after: page.last)
                }
            }
            return orders.sorted { $0.id < $1.id }
        }
    }

    /// Starts the order's lifecycle in `placed`, then starts its checkout workflow under the
    /// order's id (durable once this returns), and answers 202 with the order. With an
    /// `Idempotency-Key` header, the key is the order's id: the same request sent again answers
    /// 200 with the order it placed, and starts its checkout again, which starts nothing unless
    /// the first request stopped before.
    private static func place(
        _ request: Request, context: BasicRequestContext, shop: Shop
    ) async throws -> EditedResponse<OrderView> {
        let body = try await request.decode(as: PlaceOrderRequest.self, context: context)
        let id = try orderID(request)
        let order = try await body.order(id: id, shop: shop)
        let (instance, isNew) = try await place(order, shop: shop)
        return EditedResponse(
            status: isNew ? .accepted : .ok, headers: [.location: "/orders/\(id)"],
            response: try await OrderView(instance, shop: shop))
    }

    /// Places `order` under its id: starts its lifecycle in `placed` and its checkout workflow
    /// under the same key. Placed again (a retried request), it starts nothing and answers the
    /// order placed first, with `isNew` false.
    ///
    /// - Throws: `HTTPError` 409 when the id was used for another order.
    static func place(
        _ order: Order, shop: Shop
    ) async throws -> (instance: DurableInstance<OrderState, OrderProgress>, isNew: Bool) {
        let instance = try await shop.orders.start(order.id, context: OrderProgress(order: order))
        let placed = instance.context.order
        // Only the request that started the lifecycle finds its own order there (placedAt included).
        let isNew = placed == order
        guard placed.lines == order.lines, placed.country == order.country else {
            throw HTTPError(.conflict, message: "the idempotency key '\(order.id)' was used for a different order")
        }
        do {
            try await shop.checkout.start(placed)
        } catch CommandJournalError.conflictingEntry(let key) {
            throw HTTPError(.conflict, message: "the journal holds another checkout under '\(key)'")
        }
        if isNew {
            shop.metrics.placedOrder()
            shop.logger.info(
                "order placed", metadata: ["order": "\(order.id)", "totalCents": "\(order.totalCents)"])
        }
        return (instance, isNew)
    }

    private static func orderID(_ request: Request) throws -> String {
        guard let key = request.headers[.idempotencyKey] else {
            return "o-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        }
        let allowed = key.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_")
        }
        guard (1...64).contains(key.count), allowed else {
            throw HTTPError(.badRequest, message: "Idempotency-Key '\(key)': expected 1 to 64 letters, digits, - or _")
        }
        return key
    }
}
