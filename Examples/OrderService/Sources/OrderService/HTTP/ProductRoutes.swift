import Chains
import Hummingbird

/// `GET /products/{sku}`: a product through the tiered lookup, the tier that answered (in the
/// body and the `X-Lookup-Tier` header), and the stock the warehouse has now.
enum ProductRoutes {
    struct ProductView: ResponseEncodable {
        var product: Product
        var stock: Int?
        var tier: String
    }

    static func add(to router: Router<BasicRequestContext>, shop: Shop) {
        router.get("products/{sku}") { _, context in
            let answer = try await product(try context.parameters.require("sku"), shop: shop)
            return EditedResponse(
                headers: [.lookupTier: answer.tier],
                response: ProductView(
                    product: answer.value, stock: try shop.inventory.stock(of: answer.value.sku), tier: answer.tier))
        }
    }

    /// The product `sku` and the tier that had it; counted by tier.
    ///
    /// - Throws: `HTTPError` `missing` (404; for an order, 422) when no product has this sku, 503
    ///   when the catalog failed.
    static func product(
        _ sku: String, shop: Shop, missing: HTTPResponse.Status = .notFound
    ) async throws -> LookupAnswer<Product> {
        do {
            let answer = try await shop.products.answer(for: sku)
            shop.metrics.answered(fromTier: answer.tier)
            return answer
        } catch {
            switch error.code {
            case .notFound: throw HTTPError(missing, message: "no product has the sku '\(sku)'")
            case .unavailable: throw HTTPError(.serviceUnavailable, message: "the catalog cannot answer: \(error)")
            case .cancelled: throw CancellationError()
            }
        }
    }
}
