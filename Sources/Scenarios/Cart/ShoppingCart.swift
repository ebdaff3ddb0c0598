import BehaviorKitSync

/// The shopping cart of scenario 2: goods and their counts, in the order they were first added.
/// Counts never go below zero.
public final class ShoppingCart: Sendable {
    private let goods = LockedValue<[(item: String, count: Int)]>([])

    /// Creates an empty cart.
    public init() {}

    /// The goods with a count above zero, in the order they were first added.
    public var contents: [(item: String, count: Int)] { goods.withLock { $0 } }

    /// How many of `item` the cart holds.
    public func count(of item: String) -> Int {
        goods.withLock { $0.first { $0.item == item }?.count ?? 0 }
    }

    /// Adds `count` of `item`.
    ///
    /// - Throws: ``CartError/tooMany(item:adding:available:)`` when the count would pass
    ///   `Int.max`; the cart is then unchanged.
    public func add(_ item: String, _ count: Int) throws(CartError) {
        try goods.withLock { goods throws(CartError) in
            guard let index = goods.firstIndex(where: { $0.item == item }) else {
                goods.append((item, count))
                return
            }
            let (sum, overflow) = goods[index].count.addingReportingOverflow(count)
            guard !overflow else { throw .tooMany(item: item, adding: count, available: goods[index].count) }
            goods[index].count = sum
        }
    }

    /// Takes `count` of `item` out of the cart.
    ///
    /// - Throws: ``CartError/notEnough(item:requested:available:)``; the cart is then unchanged.
    public func reduce(_ item: String, _ count: Int) throws(CartError) {
        try goods.withLock { goods throws(CartError) in
            let index = goods.firstIndex { $0.item == item }
            let available = index.map { goods[$0].count } ?? 0
            guard let index, available >= count else {
                throw .notEnough(item: item, requested: count, available: available)
            }
            if available == count {
                goods.remove(at: index)
            } else {
                goods[index].count -= count
            }
        }
    }

    /// "2 apples, 1 pear", or "empty".
    public var summary: String {
        let goods = contents
        return goods.isEmpty ? "empty" : goods.map { CartScenario.quantity($0.count, $0.item) }.joined(separator: ", ")
    }
}

/// Why the cart refused an edit.
public enum CartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There are fewer of the item than the edit takes out.
    case notEnough(item: String, requested: Int, available: Int)
    /// The count of the item would pass the largest the cart holds (`Int.max`).
    case tooMany(item: String, adding: Int, available: Int)

    /// Names the item and the counts.
    public var description: String {
        switch self {
        case .notEnough(let item, let requested, let available):
            "cannot reduce \(item) by \(requested): the cart has \(available)"
        case .tooMany(let item, let adding, let available):
            "cannot add \(item) by \(adding): the cart has \(available), the most it can hold"
        }
    }
}
