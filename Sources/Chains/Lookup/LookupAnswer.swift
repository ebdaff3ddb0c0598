/// A value and the tier that answered it.
public struct LookupAnswer<Value: Sendable>: Sendable {
    /// The value.
    public let value: Value
    /// The name of the tier that had it.
    public let tier: String
    /// The position of that tier in the chain, from 0.
    public let tierIndex: Int

    /// Creates an answer.
    @inlinable
    public init(value: Value, tier: String, tierIndex: Int) {
        self.value = value
        self.tier = tier
        self.tierIndex = tierIndex
    }
}
