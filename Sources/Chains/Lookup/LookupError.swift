import BehaviorKitSync

/// Why a ``TieredLookup`` has no value: no tier has it (`.notFound`, an HTTP 404), the sources
/// that might have it failed or were skipped (`.unavailable`, a 503), or the lookup was
/// cancelled.
///
/// Both end-of-chain errors list the tiers that failed on the way.
///
/// ```swift
/// do { _ = try await movies.value(for: 10_000) } catch {
///     print(error)   // unavailable: 10000 (primary failed: timed out)
///     switch error.code {
///     case .notFound: response = .notFound
///     case .unavailable: response = .serviceUnavailable
///     case .cancelled: return
///     }
/// }
/// ```
public struct LookupError<Key: Hashable & Sendable>: Error, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Hashable, Sendable {
        /// Every tier asked answered that it does not have the value (a cache tier may have
        /// failed, but every source answered).
        case notFound
        /// No tier had the value, and a source failed or was skipped (its circuit open) on the
        /// way: the value may exist.
        case unavailable
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

    /// Names the key and, for an unavailable value, each tier that failed or was skipped.
    public var description: String {
        switch code {
        case .cancelled:
            return "lookup of \(key) cancelled"
        case .notFound, .unavailable:
            var text = "\(code == .notFound ? "not found" : "unavailable"): \(key)"
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

    /// "primary failed: <error>".
    public var description: String { "\(tier) failed: \(error)" }
}

/// The error recorded for a source skipped because its circuit breaker is open.
public struct CircuitOpenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The source's name.
    public let tier: String
    /// How long until the source is tried again.
    public let retryAfter: Duration

    /// Says that the circuit is open and when the source is tried again.
    public var description: String {
        "circuit open after repeated failures, retried in \(retryAfter.shortDescription)"
    }
}
