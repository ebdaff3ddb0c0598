import Foundation
import Testing

struct MoviesCommandTests {
    @Test func seededRunPrintsTheSameTraceAndNoProgressWhenNotATerminal() throws {
        let result = try CLIRunner.run(["movies", "--count", "12", "--seed", "7", "--failure-rate", "0.3"])
        #expect(result.exitCode == 0)
        #expect(result.standardError.isEmpty)
        let road = "If you're reading this, it's the end of the road my friend :)"
        let down = "primary failed: 503 Service Unavailable; fallback failed: 503 Service Unavailable"
        #expect(
            result.standardOutput == """
                Looking up movies 0…11: memory → disk → primary → fallback (seed 7, failure rate 30%)
                movie 0: “The Silent Harbor” (1950) from primary
                movie 1: “The Last Harbor” (1957) from fallback
                movie 2: “The Crimson Harbor” (1964) from primary
                movie 5: \(road) (\(down))
                movie 8: \(road) (\(down))
                movie 10: \(road) (\(down))

                answered by memory 0, disk 0, primary 8, fallback 1; end of the chain 3 (0 unknown, 3 with every source down)

                tier      hits  misses  errors  skipped  writes  write errors  mean latency
                memory       0      12       0        0       9             0          0 ns
                disk         0      12       0        0       9             0          0 ns
                primary      8       0       4        0       0             0         20 ms
                fallback     1       0       3        0       0             0         50 ms
                (simulated time: each call to primary takes 20 ms, to fallback 50 ms; the caches take none)

                """)
    }

    @Test func secondRunWithTheSameCacheDirectoryIsAnsweredFromDisk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("movies-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["movies", "--count", "20", "--failure-rate", "0", "--cache-dir", folder.path]
        let first = try CLIRunner.run(arguments)
        #expect(first.exitCode == 0)
        #expect(first.standardOutput.contains("answered by memory 0, disk 0, primary 20, fallback 0"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("movies.sqlite").path))
        let second = try CLIRunner.run(arguments)
        #expect(second.exitCode == 0)
        #expect(second.standardOutput.contains("movie 0: “The Silent Harbor” (1950) from disk"))
        #expect(second.standardOutput.contains("answered by memory 0, disk 20, primary 0, fallback 0"))
    }

    @Test(arguments: [
        ("file/sub", "cannot be created: ", "file is a file, not a folder"),
        ("file", "cannot be created: ", "file is a file, not a folder"),
        ("folder", "cannot open the file", "movies.sqlite is a folder"),
    ])
    func aCacheDirectoryProblemNamesTheFolderInPlainWords(folder: String, problem: String, detail: String) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("movies-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("folder/movies.sqlite"), withIntermediateDirectories: true)
        try Data().write(to: root.appendingPathComponent("file"))
        let result = try CLIRunner.run(["movies", "--count", "1", "--cache-dir", root.path + "/" + folder])
        #expect(result.exitCode != 0)
        #expect(!result.standardError.contains("NSCocoaErrorDomain"))
        #expect(result.standardError.contains(root.path + "/" + folder))
        #expect(result.standardError.contains(problem))
        #expect(result.standardError.contains(detail))
    }

    @Test func refusesAFailureRateOutOfRange() throws {
        let result = try CLIRunner.run(["movies", "--failure-rate", "1.5"])
        #expect(result.exitCode != 0)
        #expect(result.standardError.contains("--failure-rate must be between 0 and 1, got 1.5"))
    }
}
