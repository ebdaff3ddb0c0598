import HTTPTypes

extension HTTPField.Name {
    /// The tier of the product lookup that answered.
    static let lookupTier = Self("X-Lookup-Tier")!
    /// A client's key for a request it may send again: the id of the order it places.
    static let idempotencyKey = Self("Idempotency-Key")!
}
