import BehaviorKitSQLite
import BehaviorKitSync
import BehaviorKitTesting
import Chains
import Foundation

/// Scenario 3: movies looked up through memory → disk → primary → fallback → end of chain.
public enum MoviesScenario {
    /// What the article's end of the chain prints.
    public static let endOfTheRoad = "If you're reading this, it's the end of the road my friend :)"

    /// The article asks for ids 0…10000.
    public static let articleCount = 10_001

    /// How many answered lookups are printed before the summary.
    static let shownAnswers = 3

    /// Looks up movies `0..<count` in order and prints the first answers, each lookup that
    /// reached the end of the chain (with the failures on the way), who answered, a table of
    /// each tier's statistics, and the write-backs that failed (a full disk, say).
    ///
    /// - Parameters:
    ///   - catalog: the movies the endpoints know; the article's has ids 0…9999.
    ///   - cacheDirectory: where the disk tier keeps `movies.sqlite`; `nil` for a temporary
    ///     folder removed at the end. A second run with the same folder is answered from disk.
    ///   - clock: the endpoints take their time on it (see ``runOnSimulatedTime(count:catalog:seed:failureRate:cacheDirectory:console:progress:)``).
    ///   - progress: called with (done, total) every 100 lookups and at the end.
    public static func run(
        count: Int = articleCount, catalog: MovieCatalog = .article, seed: UInt64 = 42, failureRate: Double = 0.05,
        cacheDirectory: String? = nil, clock: some Clock<Duration>, console: Console,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws {
        let folder =
            cacheDirectory
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("behaviorkit-movies-\(UUID().uuidString)").path
        defer { if cacheDirectory == nil { try? FileManager.default.removeItem(atPath: folder) } }
        let disk = try MovieChain.openDiskCache(in: folder)
        if disk.wasRebuilt { console.print("(the disk cache at \(disk.path) was unreadable: rebuilt empty)") }
        let chain = MovieChain.main(disk: disk, catalog: catalog, failureRate: failureRate, seed: seed, clock: clock)
        let controller = MovieController(chain: chain)

        let percent = (failureRate * 1000).rounded() / 10
        console.print(
            "Looking up movies 0…\(count - 1): memory → disk → primary → fallback "
                + "(seed \(seed), failure rate \(percent.formatted)%)")
        var tally = AnswerTally(tierNames: chain.statistics.tiers.map(\.name))
        for id in 0..<count {
            let result = await controller.movie(id)
            if let line = tally.add(id: id, result) { console.print(line) }
            if let progress, (id + 1) % 100 == 0 || id + 1 == count { progress(id + 1, count) }
        }
        console.print("")
        console.print(tally.summary)
        console.print("")
        for line in MoviesTable.lines(chain.statistics) { console.print(line) }
    }

    /// ``run(count:catalog:seed:failureRate:cacheDirectory:clock:console:progress:)`` on simulated
    /// time (an `ImmediateClock`: every wait of an endpoint ends at once), then a line saying so.
    public static func runOnSimulatedTime(
        count: Int = articleCount, catalog: MovieCatalog = .article, seed: UInt64 = 42, failureRate: Double = 0.05,
        cacheDirectory: String? = nil, console: Console, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws {
        try await run(
            count: count, catalog: catalog, seed: seed, failureRate: failureRate, cacheDirectory: cacheDirectory,
            clock: ImmediateClock(), console: console, progress: progress)
        console.print(
            "(simulated time: each call to primary takes \(MovieChain.primaryDelay.shortDescription), to fallback "
                + "\(MovieChain.fallbackDelay.shortDescription); the caches take none)")
    }

    /// The tour's stop: 200 lookups on simulated time, from a cold cache.
    public static let tourStop = TourStop(
        command: "movies --count 200 --failure-rate 0.1", title: "Movies: a tiered lookup"
    ) { console in
        try await runOnSimulatedTime(count: 200, failureRate: 0.1, console: console)
    }
}

/// Counts who answered, and says which lines to print.
struct AnswerTally {
    private var answers: [Int]
    private let tierNames: [String]
    private var shown = 0
    private var unknown = 0
    private var unavailable = 0

    init(tierNames: [String]) {
        self.tierNames = tierNames
        self.answers = Array(repeating: 0, count: tierNames.count)
    }

    mutating func add(id: Int, _ result: Result<LookupAnswer<MovieItem>, LookupError<Int>>) -> String? {
        switch result {
        case .success(let answer):
            answers[answer.tierIndex] += 1
            guard shown < MoviesScenario.shownAnswers else { return nil }
            shown += 1
            let movie = answer.value
            return "movie \(id): “\(movie.title)” (\(movie.year)) from \(answer.tier)"
        case .failure(let error) where error.code != .unavailable:
            unknown += 1
            return "movie \(id): \(MoviesScenario.endOfTheRoad)"
        case .failure(let error):
            unavailable += 1
            let reasons = error.failures.map(\.description).joined(separator: "; ")
            return "movie \(id): \(MoviesScenario.endOfTheRoad) (\(reasons))"
        }
    }

    var summary: String {
        let answered = zip(tierNames, answers).map { "\($0) \($1)" }.joined(separator: ", ")
        return "answered by \(answered); end of the chain \(unknown + unavailable) "
            + "(\(unknown) unknown, \(unavailable) with every source down)"
    }
}

extension Double {
    /// `5` for 5.0, `2.5` for 2.5.
    fileprivate var formatted: String {
        self == rounded() ? "\(Int(self))" : "\(self)"
    }
}
