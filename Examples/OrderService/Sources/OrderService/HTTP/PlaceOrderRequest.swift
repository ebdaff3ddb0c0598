import Chains
import Commands
import Foundation
import Hummingbird

/// The body of `POST /orders`: `{"items": [{"sku": "mug", "quantity": 2}], "country": "DE"}`.
struct PlaceOrderRequest: Decodable {
    struct Item: Decodable {
        var sku: String
        var quantity: Int
    }

    var items: [Item]
    var country: String

    /// The order this request places, priced from the product lookup.
    ///
    /// - Throws: `HTTPError` 422 naming what is wrong with the request (an unknown product, a
    ///   quantity out of range), 503 when the catalog cannot answer.
    func order(id: String, shop: Shop) async throws -> Order {
        guard (1...20).contains(items.count) else {
            throw HTTPError(.unprocessableContent, message: "an order has 1 to 20 items, this one has \(items.count)")
        }
        guard country.count == 2, country.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw HTTPError(.unprocessableContent, message: "country '\(country)': expected two capital letters (DE)")
        }
        var lines: [OrderLine] = []
        for item in items {
            guard (1...100).contains(item.quantity) else {
                throw HTTPError(
                    .unprocessableContent, message: "quantity \(item.quantity) of '\(item.sku)': expected 1 to 100")
            }
            let product = try await ProductRoutes.product(item.sku, shop: shop, missing: .unprocessableContent).value
            lines.append(OrderLine(sku: product.sku, quantity: item.quantity, unitCents: product.priceCents))
        }
        return Order(id: id, lines: lines, country: country, placedAt: Date())
    }
}
