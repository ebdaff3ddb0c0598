import Commands
import DurableMachines
import Foundation
import Hummingbird
import Logging
import Testing

@testable import OrderService

/// `POST /orders` under an idempotency key, on a shop in a data folder of its own (SQLite).
@Suite struct PlaceOrderTests {
    @Test func aSecondRequestWithTheSameKeyAnswersTheSameOrder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orderservice-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = try Options([])
        options.data = folder.path
        let shop = try await Shop(options: options, logger: Logger(label: "test"))
        let order = Order(
            id: "key-1", lines: [OrderLine(sku: "mug", quantity: 2, unitCents: 1_200)], country: "DE",
            placedAt: Date(timeIntervalSince1970: 1))
        var retried = order
        retried.placedAt = Date(timeIntervalSince1970: 2)  // the same request, priced again later

        let first = try await OrderRoutes.place(order, shop: shop)
        let second = try await OrderRoutes.place(retried, shop: shop)

        #expect(first.isNew)
        #expect(!second.isNew)  // answered 200, not 202
        #expect(second.instance.context.order == order)
        let run = try #require(try await shop.checkout.run(of: "key-1"))
        #expect(run.record.status == .pending)
        #expect(run.record.attempts == 0)  // started once, run by no worker yet

        var other = order
        other.lines[0].quantity = 3
        await #expect(throws: HTTPError.self) { try await OrderRoutes.place(other, shop: shop) }
        try await shop.orders.store.close()
        try await shop.journal.close()
    }
}
