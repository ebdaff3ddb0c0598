extension TieredLookup: LookupTier {
    /// The value for `key`, or `nil` when the chain has none: a tiered lookup can be a tier.
    ///
    /// - Throws: the ``LookupError`` when its sources were unavailable (so that the outer
    ///   lookup counts a failure and fails over), `CancellationError` when cancelled.
    public func lookup(_ key: Key) async throws -> Value? {
        do {
            return try await value(for: key)
        } catch {
            switch error.code {
            case .notFound: return nil
            case .unavailable: throw error
            case .cancelled: throw CancellationError()
            }
        }
    }
}
