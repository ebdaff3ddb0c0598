public import BehaviorKitSQLite
public import Chains
import Foundation

/// Builds the chains of scenario 3: the main one, and a dummy one for tests.
public enum MovieChain {
    /// How long the simulated primary endpoint takes.
    public static let primaryDelay: Duration = .milliseconds(20)
    /// How long the simulated fallback endpoint takes.
    public static let fallbackDelay: Duration = .milliseconds(50)

    /// `memory → disk → primary → fallback → end of chain`.
    ///
    /// - Parameters:
    ///   - disk: the disk tier (see ``openDiskCache(in:)``).
    ///   - failureRate: the share of endpoint calls that fail.
    ///   - seed: fixes which calls fail.
    ///   - clock: the clock the endpoints take their time on, and the lookup measures with.
    public static func main(
        disk: DiskCache<Int, MovieItem>, catalog: MovieCatalog = .article, failureRate: Double, seed: UInt64,
        clock: some Clock<Duration>
    ) -> TieredLookup<Int, MovieItem> {
        TieredLookup(
            [
                MemoryCache(countLimit: 1_000, clock: clock),
                disk,
                MovieEndpoint(
                    name: "primary", catalog: catalog, delay: primaryDelay, failureRate: failureRate, seed: seed,
                    clock: clock),
                MovieEndpoint(
                    name: "fallback", catalog: catalog, delay: fallbackDelay, failureRate: failureRate,
                    seed: seed &+ 0x9E37_79B9, clock: clock),
            ], circuitBreaker: CircuitBreakerPolicy(failureThreshold: 5, coolDown: .seconds(5)), clock: clock)
    }

    /// A chain with one source that knows `movies` and nothing else.
    public static func dummy(_ movies: [MovieItem]) -> TieredLookup<Int, MovieItem> {
        let table = Dictionary(movies.map { ($0.movieID, $0) }, uniquingKeysWith: { first, _ in first })
        return TieredLookup([LookupSource(name: "dummy") { table[$0] }])
    }

    /// Opens `movies.sqlite` in `folder`, creating the folder; an unreadable file is rebuilt.
    ///
    /// - Throws: ``DiskCacheError`` naming the folder when it cannot be created, or the file.
    public static func openDiskCache(in folder: String) throws(DiskCacheError) -> DiskCache<Int, MovieItem> {
        try DiskCache(
            path: URL(fileURLWithPath: folder).appendingPathComponent("movies.sqlite").path, ifUnreadable: .rebuild,
            creatingFolder: true)
    }
}

/// Asks a chain for movies; works with whichever chain it is given.
public struct MovieController: Sendable {
    /// The chain asked.
    public let chain: TieredLookup<Int, MovieItem>

    /// Creates a controller over `chain`.
    public init(chain: TieredLookup<Int, MovieItem>) {
        self.chain = chain
    }

    /// The movie with `id` and the tier that had it, or the end of the chain's answer.
    public func movie(_ id: Int) async -> Result<LookupAnswer<MovieItem>, LookupError<Int>> {
        do throws(LookupError<Int>) {
            return .success(try await chain.answer(for: id))
        } catch {
            return .failure(error)
        }
    }
}
