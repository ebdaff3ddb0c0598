import BehaviorKitSQLite
import BehaviorKitSync
import Commands
import Foundation

/// The crash test: runs a child that journals commands and durable transactions, kills it with
/// SIGKILL at seeded random moments, and after each kill recovers and checks the journal.
public enum CrashTest {
    /// What the test counted.
    public struct Counts: Sendable, Hashable {
        /// Children killed.
        public var kills = 0
        /// Commands and transactions the children acknowledged as durable.
        public var acknowledged = 0
        /// Commands recovery replayed.
        public var recovered = 0
        /// Transactions recovery compensated.
        public var compensated = 0
        /// Transactions recovery completed forward.
        public var completed = 0
    }

    /// Runs `kills` rounds in `directory` (emptied first); prints each violation and the counts.
    ///
    /// - Parameters:
    ///   - executable: the `behaviorkit` binary, run as `crash-test --child`.
    /// - Returns: the counts and the violations found (none when the journal kept its promises).
    public static func run(
        kills: Int, seed: UInt64, directory: String, executable: String, console: Console
    ) async throws -> (Counts, violations: [String]) {
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var random = SplitMix64(seed: seed)
        var counts = Counts()
        var acknowledged: [String: String] = [:]  // key: "done", "compensated"
        var violations: [String] = []
        for round in 1...max(1, kills) {
            let delay = 40 + Int(random.next() % 160)
            let output = try await runChild(
                executable, directory: directory, round: round, seed: seed, killAfterMilliseconds: delay)
            if let problem = output.problem { violations.append("round \(round): \(problem)") }
            counts.kills += output.problem == nil ? 1 : 0
            for line in output.lines {
                let words = line.split(separator: " ").map(String.init)
                if words.count == 2 && words[0] == "ack" { acknowledged[words[1]] = "done" }
                if words.count == 3 && words[0] == "tx" { acknowledged[words[1]] = words[2] }
            }
            let report = try await recover(directory, round: round)
            counts.recovered += report.replayed.count
            counts.compensated += report.compensatedTransactions.count
            counts.completed += report.completedTransactions.count
            violations += try await check(directory, acknowledged: acknowledged, report: report)
                .map { "round \(round): \($0)" }
        }
        counts.acknowledged = acknowledged.count
        for violation in violations { console.print("violation: \(violation)") }
        console.print(
            "crash test: \(counts.kills) kills, \(counts.acknowledged) acknowledged, \(counts.recovered) recovered, "
                + "\(counts.compensated) compensated, \(counts.completed) completed forward; "
                + "\(violations.count) violations")
        return (counts, violations)
    }

    static func recover(_ directory: String, round: Int) async throws -> CommandRecoveryReport {
        let journal = try SQLiteCommandJournal(path: CrashTestWork.journalPath(directory))
        let ledger = try CrashTestWork.Ledger(path: CrashTestWork.ledgerPath(directory))
        return try await JournaledInvoker(journal: journal, registry: CrashTestWork.registry(ledger))
            .recover(takingOverFrom: CrashTestWork.owner(round: round))
    }
}

extension CrashTest {
    /// The child's side (`crash-test --child`): journals until killed.
    public static func runChild(directory: String, round: Int, seed: UInt64) async throws {
        try await CrashTestWork.runChild(directory: directory, round: round, seed: seed)
    }
}
