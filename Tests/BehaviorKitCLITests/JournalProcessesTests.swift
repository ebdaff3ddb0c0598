import BehaviorKitSQLite
import Commands
import Foundation
import Testing

/// Several `behaviorkit` processes on one journal file, as issue 8 tried them.
struct JournalProcessesTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("JournalProcesses-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    @Test func twoGarageLoopsOnOneFileLeaveNoTransactionHalfDone() throws {
        let journal = path("shared.sqlite")
        let results = CLIRunner.runConcurrently(
            Array(repeating: ["garage", "--journal", journal], count: 2), times: 20)
        for result in results { #expect(result.exitCode == 0, "\(result.standardError)") }
        let listing = try CLIRunner.run(["journal", journal])
        #expect(listing.exitCode == 0)
        let problems = JournalListingCheck.halfDone(listing.standardOutput)
        #expect(problems.isEmpty, "\(problems.count) problems: \(problems.prefix(4))")
    }

    @Test(
        .enabled(
            if: BuildTraits.postgreSQLUnavailableReason == nil, "skipped: no PostgreSQL here, or no PostgreSQL trait"))
    func twoGarageLoopsOnOnePostgresJournalLeaveNoTransactionHalfDone() throws {
        let cluster = try PostgresTestCluster.shared()
        let journal = cluster.url(database: try cluster.makeDatabase("garage"))
        let results = CLIRunner.runConcurrently(
            Array(repeating: ["garage", "--journal", journal], count: 2), times: 10)
        for result in results { #expect(result.exitCode == 0, "\(result.standardError)") }
        let listing = try CLIRunner.run(["journal", journal])
        #expect(listing.exitCode == 0, "\(listing.standardError)")
        #expect(listing.standardOutput.contains("run20/"), "every run's records are listed")
        let problems = JournalListingCheck.halfDone(listing.standardOutput)
        #expect(problems.isEmpty, "\(problems.count) problems: \(problems.prefix(4))")
    }

    @Test func aPendingRecordIsReplayedByOneOfTwoProcessesStartedTogether() async throws {
        var twice = 0
        for trial in 0..<6 {
            let journal = path("pending-\(trial).sqlite")
            do {
                let store = try SQLiteCommandJournal(path: journal)
                struct Vehicle: Codable { var id: Int, name: String }
                _ = try await store.begin(
                    CommandRegistry.entry(kind: "garage.log", arguments: Vehicle(id: 9, name: "left"), key: "run0/1"),
                    lease: JournalLease(owner: "stopped", duration: .zero))
            }
            let results = CLIRunner.runConcurrently([
                ["garage", "--journal", journal], ["garage", "--journal", journal],
            ])
            let replays = results.filter { $0.standardOutput.contains("Journal: recovery: 1 replayed") }.count
            if replays != 1 { twice += 1 }
        }
        #expect(twice == 0, "the pending record was replayed by both processes (or neither) in \(twice) of 6 trials")
    }

    @Test func fourProcessesOpeningANewJournalAtOnceAllSucceed() throws {
        var failures: [String] = []
        for trial in 0..<8 {
            let journal = path("new-\(trial).sqlite")
            for result in CLIRunner.runConcurrently(Array(repeating: ["garage", "--journal", journal], count: 4))
            where result.exitCode != 0 {
                failures.append(result.standardError)
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of 32 opens failed: \(failures.prefix(2))")
    }

    @Test func listingAJournalLeavesItsBytesUnchanged() throws {
        let journal = path("listed.sqlite")
        #expect(try CLIRunner.run(["garage", "--journal", journal]).exitCode == 0)
        let before = try Self.bytes(journal)
        let listing = try CLIRunner.run(["journal", journal])
        #expect(listing.exitCode == 0)
        #expect(try Self.bytes(journal) == before, "listing changed the journal's files")
    }

    @Test func aFullDiskEndsTheGarageWithAReasonAndANonZeroExit() throws {
        let journal = path("full.sqlite")
        #expect(try CLIRunner.run(["garage", "--journal", journal]).exitCode == 0)
        // A file-size limit at the journal's present size: opening works, and every write that
        // grows a file past it fails with EFBIG, as on a full disk.
        let size = max(try Self.bytes(journal).values.map(\.count).max() ?? 0, 32768)
        let executable = try CLIRunner.executable.path
        let script = "trap '' XFSZ; ulimit -f \(size / 512); exec \"$0\" garage --journal \"$1\""
        let result = try CLIRunner.run(executable: "/bin/sh", ["-c", script, executable, journal])
        #expect(result.exitCode != 0, "exit \(result.exitCode); stdout: \(result.standardOutput)")
        #expect(result.standardError.contains(journal), "stderr: \(result.standardError)")
    }

    static func bytes(_ journal: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: journal + suffix) {
            files[suffix] = try Data(contentsOf: URL(fileURLWithPath: journal + suffix))
        }
        return files
    }
}

/// Reads `behaviorkit journal` listings.
enum JournalListingCheck {
    /// Transactions whose steps disagree with how the transaction settled, and pending records.
    static func halfDone(_ listing: String) -> [String] {
        var statuses: [String: String] = [:]
        var transactions: [String] = []
        for line in listing.split(separator: "\n") where line.hasPrefix("#") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard words.count >= 4 else { continue }
            statuses[words[2]] = words[1]
            if words[3] == "behaviorkit.transaction" { transactions.append(words[2]) }
        }
        var problems = statuses.filter { $0.value == "pending" }.map { "\($0.key) is pending" }
        for key in transactions {
            let steps = statuses.filter { $0.key.hasPrefix(key + "/") }.map(\.value)
            switch statuses[key] {
            case "done" where steps.contains { $0 != "done" }: problems.append("\(key) done, steps \(steps)")
            case "compensated" where steps.contains { $0 == "done" || $0 == "pending" }:
                problems.append("\(key) compensated, steps \(steps)")
            default: break
            }
        }
        return problems
    }
}

extension JournalProcessesTests {
    @Test func aWriteLockHeldByAnotherProcessEndsTheGarageWithAReason() async throws {
        let journal = path("locked.sqlite")
        #expect(try CLIRunner.run(["garage", "--journal", journal]).exitCode == 0)
        let lock = try WriteLockHolder(path: journal)
        await lock.acquire()
        let result = try CLIRunner.run(["garage", "--journal", journal, "--busy-timeout", "0.2"])
        lock.release()
        #expect(result.exitCode == 1)
        #expect(
            result.standardError.hasPrefix("error: command journal \(journal): another process held its write lock"),
            "stderr: \(result.standardError)")
    }

    @Test func listingWorksOnReadOnlyMediaAndChangesNothing() throws {
        let folder = path("media")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let journal = folder + "/journal.sqlite"
        #expect(try CLIRunner.run(["garage", "--journal", journal]).exitCode == 0)
        // The WAL holds records not yet in the main file; without its index (-shm), a reader
        // would have to write one beside the journal, which the folder forbids.
        try? FileManager.default.removeItem(atPath: journal + "-shm")
        let before = try Self.bytes(journal)
        #expect(before["-wal"] != nil, "the garage left a WAL")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: journal)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
        let listing = try ReadOnlyUser.run(["journal", journal])
        #expect(listing.exitCode == 0, "stderr: \(listing.standardError)")
        #expect(listing.standardOutput.hasSuffix("10 records: 10 done\n"), "stdout: \(listing.standardOutput)")
        #expect(try Self.bytes(journal) == before)
        #expect(!FileManager.default.fileExists(atPath: journal + "-shm"), "listing wrote beside the journal")
    }
}

/// Runs the CLI as a user who cannot write to read-only files: the current user when it is
/// not root (root writes anywhere), `nobody` through `setpriv` when it is.
enum ReadOnlyUser {
    static func run(_ arguments: [String]) throws -> CLIRunner.Result {
        guard getuid() == 0 else { return try CLIRunner.run(arguments) }
        let executable = try CLIRunner.executable.path
        return try CLIRunner.run(
            executable: "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", executable] + arguments)
    }
}
