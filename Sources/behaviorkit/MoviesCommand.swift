import ArgumentParser
import BehaviorKitTesting
import Foundation
import Scenarios

struct MoviesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "movies",
        abstract: "Looks movies up through memory → disk → primary → fallback → end of chain (scenario 3).",
        discussion: """
            Runs the 10,001 lookups of scenario 3, movies 0…10000 (--count to change), through a memory cache, a disk \
            cache on SQLite, and two simulated endpoints that fail at a seeded rate. Prints the first answers, \
            the end of the chain for unknown movies, and a table of hits, misses, errors and latency per tier. \
            With --cache-dir, a second run is answered from disk. Time is simulated unless --real-time.
            """
    )

    @Option(help: "How many movies to look up, ids from 0 (1 to \(Self.maximumCount)).")
    var count = MoviesScenario.articleCount

    @Option(help: "The seed that decides which endpoint calls fail.")
    var seed: UInt64 = 42

    @Option(help: "The share of endpoint calls that fail, from 0 to 1.")
    var failureRate = 0.05

    @Option(help: "The folder of the disk cache (movies.sqlite); without it, a temporary folder.")
    var cacheDir: String?

    @Flag(help: "Wait for real: each endpoint call takes its 20 or 50 ms of real time.")
    var realTime = false

    /// The most lookups a run takes: ten times the article's, about 40 s in a debug build.
    static let maximumCount = 100_000

    func validate() throws {
        try OptionRange.check("--count", count, in: 1...Self.maximumCount)
        try OptionRange.check("--failure-rate", failureRate, in: 0...1)
    }

    func run() async throws {
        // A named function, not a closure returning a closure: that crashes swiftc 6.3.1.
        let progress: (@Sendable (Int, Int) -> Void)? = isatty(STDERR_FILENO) == 1 ? ProgressBar.show : nil
        if realTime {
            try await MoviesScenario.run(
                count: count, seed: seed, failureRate: failureRate, cacheDirectory: cacheDir,
                clock: ContinuousClock(), console: .standardOutput, progress: progress)
        } else {
            try await MoviesScenario.runOnSimulatedTime(
                count: count, seed: seed, failureRate: failureRate, cacheDirectory: cacheDir,
                console: .standardOutput, progress: progress)
        }
    }
}

/// A one-line progress bar on standard error, erased when done.
enum ProgressBar {
    @Sendable
    static func show(_ done: Int, of total: Int) {
        let width = 30
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let line = done == total ? "\r\(String(repeating: " ", count: width + 30))\r" : "\r[\(bar)] \(done)/\(total)"
        StandardStream.error.write(line)
    }
}
