/// Why a ``TieredLookup`` has no value: the end of the chain (not found), or a cancelled lookup.
///
/// A not-found error lists the tiers that failed on the way, so that "no tier has it" and "the
/// tiers that might have it were down" can be told apart.
///
/// ```swift
/// do { _ = try await movies.value(for: 10_000) } catch {
///     print(error)   // not found: 10000 (primary failed: timed out)
/// }
/// ```
public struct LookupError<Key: Hashable & Sendable>: Error, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Hashable, Sendable {
        /// Every tier was asked (or skipped) and none had the value.
        case notFound
        /// The lookup's task was cancelled before it had an answer.
        case cancelled
    }

    /// What went wrong.
    public let code: Code
    /// The key looked up.
    public let key: Key
    /// The tiers that failed during the lookup, in the order they were asked.
    public let failures: [LookupTierFailure]
    /// Whether the answer came from the negative cache ("not found" remembered for a while).
    public let isRemembered: Bool

    /// Creates an error.
    public init(code: Code, key: Key, failures: [LookupTierFailure] = [], isRemembered: Bool = false) {
        self.code = code
        self.key = key
        self.failures = failures
        self.isRemembered = isRemembered
    }

    public var description: String {
        switch code {
        case .cancelled:
            return "lookup of \(key) cancelled"
        case .notFound:
            var text = "not found: \(key)"
            if isRemembered { text += " (remembered)" }
            if !failures.isEmpty { text += " (\(failures.map(\.description).joined(separator: "; ")))" }
            return text
        }
    }
}

/// One tier's failure during a lookup.
public struct LookupTierFailure: Sendable, CustomStringConvertible {
    /// The tier's name.
    public let tier: String
    /// What it threw, or ``CircuitOpenError`` when it was skipped.
    public let error: any Error

    /// Creates a failure of `tier`.
    public init(tier: String, error: any Error) {
        self.tier = tier
        self.error = error
    }

    public var description: String { "\(tier) failed: \(error)" }
}

/// The error recorded for a source skipped because its circuit breaker is open.
public struct CircuitOpenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The source's name.
    public let tier: String
    /// How long until the source is tried again.
    public let retryAfter: Duration

    public var description: String {
        "circuit open after repeated failures, retried in \(retryAfter.shortDescription)"
    }
}
