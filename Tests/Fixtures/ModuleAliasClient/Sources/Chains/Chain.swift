/// The client's own `Chains` module: a chain of custody, say.
public struct Custody: Sendable {
    /// Who held the item, in order.
    public let holders: [String]

    /// A chain of custody.
    public init(_ holders: [String]) {
        self.holders = holders
    }
}
