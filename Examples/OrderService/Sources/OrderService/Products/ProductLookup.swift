import Chains

/// Products through a `TieredLookup`: a `MemoryCache` in front of the catalog, which stands in
/// for a database that takes `catalogLatency` to answer. A product found in the catalog is
/// written back into the cache; concurrent misses of one product make one catalog read; an
/// unknown product is remembered as "not found" for a while.
enum ProductLookup {
    static func make(catalogLatency: Duration) -> TieredLookup<String, Product> {
        let bySKU = Dictionary(uniqueKeysWithValues: Product.catalog.map { ($0.sku, $0) })
        let catalog = LookupSource<String, Product>(name: "catalog") { sku in
            if catalogLatency > .zero { try await Task.sleep(for: catalogLatency) }
            return bySKU[sku]
        }
        return TieredLookup(
            [MemoryCache(countLimit: 1_000, timeToLive: .seconds(300)), catalog], rememberNotFoundFor: .seconds(30))
    }
}
