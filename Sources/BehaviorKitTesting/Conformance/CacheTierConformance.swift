public import Chains

/// The contract every cache tier (`LookupStore`) must keep, as a suite you run in your tests.
///
/// Each check gets a fresh store from `makeStore`, so checks do not see each other's values.
/// The suite does not use a test framework: it throws a ``CacheTierConformanceError`` listing
/// every check that failed, with what it expected and what it got.
///
/// ```swift
/// @Test func diskCacheConforms() async throws {
///     try await CacheTierConformance(keys: [1, 2, 3], values: ["a", "b"]) {
///         try DiskCache<Int, String>(path: temporaryFile())
///     }.run()
/// }
/// ```
///
/// Make the store large enough for the keys given: the suite does not expect evictions.
public struct CacheTierConformance<Store: LookupStore>: Sendable where Store.Value: Equatable {
    /// Distinct keys to use; at least 3.
    public let keys: [Store.Key]
    /// Distinct values to use; at least 2.
    public let values: [Store.Value]
    private let makeStore: @Sendable () async throws -> Store

    /// Creates the suite.
    ///
    /// - Parameters:
    ///   - keys: distinct keys (at least 3); the checks store values under them.
    ///   - values: distinct values (at least 2); each is written and read back.
    ///   - makeStore: makes a new, empty store for each check.
    public init(keys: [Store.Key], values: [Store.Value], makeStore: @escaping @Sendable () async throws -> Store) {
        self.keys = keys
        self.values = values
        self.makeStore = makeStore
    }

    /// The names of the checks, in the order ``run()`` runs them.
    public static var checkNames: [String] { Check.allCases.map(\.rawValue) }

    /// Runs every check.
    ///
    /// - Throws: ``CacheTierConformanceError`` naming each failed check.
    public func run() async throws(CacheTierConformanceError) {
        var failures: [CacheTierConformanceError.Failure] = []
        if Set(keys).count < 3 || values.count < 2 || values[0] == values[1] {
            throw CacheTierConformanceError(failures: [
                .init(check: "setup", message: "needs at least 3 distinct keys and 2 distinct values")
            ])
        }
        for check in Check.allCases {
            do {
                let store = try await makeStore()
                try await run(check, on: store)
            } catch let failure as CacheTierConformanceError.Failure {
                failures.append(failure)
            } catch {
                failures.append(.init(check: check.rawValue, message: "the store threw \(error)"))
            }
        }
        if !failures.isEmpty { throw CacheTierConformanceError(failures: failures) }
    }
}

/// The checks of ``CacheTierConformance`` that failed.
public struct CacheTierConformanceError: Error, CustomStringConvertible {
    /// One failed check.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The check's name, such as `a stored value is returned`.
        public let check: String
        /// What it expected and what it got.
        public let message: String

        /// "<check>: <message>".
        public var description: String { "\(check): \(message)" }
    }

    /// The failed checks.
    public let failures: [Failure]

    /// How many checks failed, then a line per failed check.
    public var description: String {
        "\(failures.count) cache tier conformance check(s) failed:\n"
            + failures.map { "- \($0)" }.joined(separator: "\n")
    }
}
