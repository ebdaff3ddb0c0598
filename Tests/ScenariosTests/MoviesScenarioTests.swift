import BehaviorKitSQLite
import BehaviorKitTesting
import Chains
import Foundation
import GRDB
import Scenarios
import Testing

struct MoviesScenarioTests {
    private let road = "If you're reading this, it's the end of the road my friend :)"
    private let down = "primary failed: 503 Service Unavailable; fallback failed: 503 Service Unavailable"
    private let simulated =
        "(simulated time: each call to primary takes 20 ms, to fallback 50 ms; the caches take none)"

    private func run(
        count: Int, catalog: MovieCatalog = .article, seed: UInt64 = 42, failureRate: Double,
        cacheDirectory: String? = nil
    ) async throws -> [String] {
        let (console, recording) = Console.recording()
        try await MoviesScenario.runOnSimulatedTime(
            count: count, catalog: catalog, seed: seed, failureRate: failureRate, cacheDirectory: cacheDirectory,
            console: console)
        return recording.lines
    }

    @Test func seededFailuresGiveTheSameTraceEveryRun() async throws {
        let lines = try await run(count: 12, seed: 7, failureRate: 0.3)
        #expect(
            lines == [
                "Looking up movies 0…11: memory → disk → primary → fallback (seed 7, failure rate 30%)",
                "movie 0: “The Silent Harbor” (1950) from primary",
                "movie 1: “The Last Harbor” (1957) from fallback",
                "movie 2: “The Crimson Harbor” (1964) from primary",
                "movie 5: \(road) (\(down))",
                "movie 8: \(road) (\(down))",
                "movie 10: \(road) (\(down))",
                "",
                "answered by memory 0, disk 0, primary 8, fallback 1; end of the chain 3 (0 unknown, 3 with every source down)",
                "",
                "tier      hits  misses  errors  skipped  writes  write errors  mean latency",
                "memory       0      12       0        0       9             0          0 ns",
                "disk         0      12       0        0       9             0          0 ns",
                "primary      8       0       4        0       0             0         20 ms",
                "fallback     1       0       3        0       0             0         50 ms",
                simulated,
            ])
    }

    @Test func movieBeyondTheCatalogReachesTheEndOfTheRoad() async throws {
        let lines = try await run(count: 5, catalog: MovieCatalog(size: 3), failureRate: 0)
        #expect(
            Array(lines[1...5]) == [
                "movie 0: “The Silent Harbor” (1950) from primary",
                "movie 1: “The Last Harbor” (1957) from primary",
                "movie 2: “The Crimson Harbor” (1964) from primary",
                "movie 3: \(road)",
                "movie 4: \(road)",
            ])
        #expect(
            lines[7]
                == "answered by memory 0, disk 0, primary 3, fallback 0; end of the chain 2 (2 unknown, 0 with every source down)"
        )
        #expect(lines[12] == "primary      3       2       0        0       0             0         20 ms")
        #expect(lines[13] == "fallback     0       2       0        0       0             0         50 ms")
    }

    @Test func aSecondRunWithTheSameFolderIsAnsweredFromDisk() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("movies-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try await run(count: 50, failureRate: 0, cacheDirectory: folder)
        let second = try await run(count: 50, failureRate: 0, cacheDirectory: folder)
        #expect(second[1] == "movie 0: “The Silent Harbor” (1950) from disk")
        #expect(
            second.contains(
                "answered by memory 0, disk 50, primary 0, fallback 0; end of the chain 0 (0 unknown, 0 with every source down)"
            ))
        #expect(second.contains("primary      0       0       0        0       0             0             -"))
    }

    @Test func openCircuitsSkipTheSources() async throws {
        let lines = try await run(count: 8, failureRate: 1)
        #expect(lines[4] == "movie 3: \(road) (\(down))")
        #expect(
            lines[6]
                == "movie 5: \(road) (primary failed: circuit open after repeated failures, retried in 5 s; "
                + "fallback failed: circuit open after repeated failures, retried in 5 s)")
        #expect(lines.contains("primary      0       0       5        3       0             0         20 ms"))
    }

    @Test func aFullDiskShowsItsWriteErrorsInTheTable() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("movies-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try MovieChain.openDiskCache(in: folder).path
        // Every insert now fails as on a full disk (SQLITE_FULL's own message).
        try await DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER diskIsFull BEFORE INSERT ON cacheEntry
                    BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END
                    """)
        }
        let lines = try await run(count: 5, failureRate: 0, cacheDirectory: folder)
        #expect(lines.contains("tier      hits  misses  errors  skipped  writes  write errors  mean latency"))
        #expect(lines.contains("disk         0       5       0        0       0             5          0 ns"))
        #expect(lines.contains("write errors: disk 5 (the last: disk cache \(path): database or disk is full)"))
    }

    @Test func theControllerWorksWithADummyChain() async throws {
        let movie = MovieItem(movieID: 1, title: "Dummy", synopsis: "A test double.", year: 2000)
        let controller = MovieController(chain: MovieChain.dummy([movie]))
        let found = try await controller.movie(1).get()
        #expect(found.value == movie)
        #expect(found.tier == "dummy")
        guard case .failure(let error) = await controller.movie(2) else {
            Issue.record("movie 2 should not be found")
            return
        }
        #expect(error.code == .notFound)
    }

    @Test func catalogIsStable() {
        #expect(MovieCatalog.article.movie(0)?.title == "The Silent Harbor")
        #expect(MovieCatalog.article.movie(9_999)?.title == "The Electric Circuit 100")
        #expect(MovieCatalog.article.movie(10_000) == nil)
        #expect(MovieCatalog.article.movie(-1) == nil)
    }
}
