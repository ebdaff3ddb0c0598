import ArgumentParser
import BehaviorKitSQLite
import Scenarios

/// The child of the multi-process test of `DiskCache` (hidden): opens several caches on one
/// file and stores a range of keys through them at once, reading each back.
struct DiskCacheWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disk-cache-worker",
        abstract: "Stores keys into a disk cache shared with other processes, for the multi-process test.",
        shouldDisplay: false
    )

    @Option(help: "The cache's SQLite file, shared with the other workers.")
    var path: String

    @Option(help: "The first key to store (0 to 1000000).")
    var first = 0

    @Option(help: "How many keys to store, from --first (0 to 10000).")
    var count = 100

    @Option(help: "How many DiskCache instances this process opens on the file (1 to 16).")
    var instances = 2

    func validate() throws {
        try OptionRange.check("--first", first, in: 0...1_000_000)
        try OptionRange.check("--count", count, in: 0...10_000)
        try OptionRange.check("--instances", instances, in: 1...16)
    }

    func run() async throws {
        var caches: [DiskCache<Int, String>] = []
        do {
            for _ in 0..<instances { caches.append(try DiskCache(path: path)) }
        } catch {
            throw failure("\(error)")
        }
        let shared = caches
        let (first, count) = (self.first, self.count)
        let failures = await withTaskGroup(of: String?.self) { group in
            for key in first..<(first + count) {
                group.addTask {
                    let cache = shared[key % shared.count]
                    do {
                        try await cache.store("value \(key)", for: key)
                        let read = try await cache.lookup(key)
                        return read == "value \(key)" ? nil : "key \(key) read back as \(read ?? "nothing")"
                    } catch {
                        return "key \(key): \(error)"
                    }
                }
            }
            var failures: [String] = []
            for await failure in group { if let failure { failures.append(failure) } }
            return failures
        }
        let entries: Int
        do {
            entries = try await shared[0].count
        } catch {
            throw failure("\(error)")
        }
        StandardStream.output.writeLine(
            "stored \(count - failures.count) of \(count); the file holds \(entries) entries")
        if let first = failures.first {
            StandardStream.error.writeLine("\(failures.count) failed, the first: \(first)")
            throw ExitCode.failure
        }
    }
}
