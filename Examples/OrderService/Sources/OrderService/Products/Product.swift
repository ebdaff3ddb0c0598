/// A product of the catalog.
struct Product: Codable, Hashable, Sendable {
    var sku: String
    var name: String
    var priceCents: Int
    /// The stock the warehouse starts with, the first time the service runs on a data folder.
    var initialStock: Int
}

extension Product {
    /// The catalog: a stand-in for a product database.
    static let catalog: [Product] = [
        Product(sku: "mug", name: "Enamel mug", priceCents: 1_250, initialStock: 100),
        Product(sku: "tee", name: "Logo T-shirt", priceCents: 2_400, initialStock: 50),
        Product(sku: "cap", name: "Baseball cap", priceCents: 1_900, initialStock: 25),
        Product(sku: "sticker", name: "Sticker pack", priceCents: 300, initialStock: 1_000),
    ]
}
