import BehaviorKitSQLite
import Commands
import Foundation
import Testing

/// `behaviorkit journal list|show|workers|queues|activity|cancel|retry|prune|pause|resume`, as a user runs them on a
/// SQLite journal.
struct JournalOperationsCommandTests {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("JournalOperationsCommandTests-\(UUID().uuidString).sqlite").path

    func removeJournal() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// A journal of one failed `garage` run: a failed command and a compensated transaction.
    func failedGarageRun() throws {
        let run = try CLIRunner.run(["garage", "--fail-api", "--journal", path])
        #expect(run.exitCode == 0)
    }

    @Test func listFiltersByStatusAndPages() throws {
        defer { removeJournal() }
        try failedGarageRun()
        let failed = try CLIRunner.run(["journal", "list", path, "--status", "failed", "--status", "compensated"])
        #expect(failed.exitCode == 0)
        #expect(
            failed.standardOutput == """
                #2 failed      run1/1  garage.addToAPI          (the backend refused the vehicle 'first vehicle' (id 1))
                #5 compensated run1/4  behaviorkit.transaction
                2 records

                """)
        let first = try CLIRunner.run(["journal", "list", path, "--limit", "2"])
        #expect(
            first.standardOutput == """
                #1 done        run1    garage.run
                #2 failed      run1/1  garage.addToAPI  (the backend refused the vehicle 'first vehicle' (id 1))
                more: --after 2

                """)
        let next = try CLIRunner.run(["journal", "list", path, "--limit", "2", "--after", "2", "--key-prefix", "run1/"])
        #expect(
            next.standardOutput == """
                #3 done        run1/2  garage.saveToDB
                #4 done        run1/3  garage.log
                more: --after 4

                """)
        let steps = try CLIRunner.run([
            "journal", "list", path, "--key-prefix", "run1/4", "--steps", "--format", "json",
        ])
        let page = try JSONSerialization.jsonObject(with: Data(steps.standardOutput.utf8)) as? [String: Any]
        let keys = (page?["records"] as? [[String: Any]])?.compactMap { $0["key"] as? String }
        #expect(keys == ["run1/4", "run1/4/0", "run1/4/1", "run1/4/2"])
    }

    @Test func showPrintsStepsAttemptsAndWhyATransactionCompensated() throws {
        defer { removeJournal() }
        try failedGarageRun()
        let show = try CLIRunner.run(["journal", "show", path, "run1/4"])
        #expect(show.exitCode == 0)
        let lines = show.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.prefix(3) == [
                "key:         run1/4", "kind:        behaviorkit.transaction", "status:      compensated",
            ])
        #expect(lines.contains("compensated because: the backend refused the vehicle 'first vehicle' (id 1)"))
        #expect(
            lines.drop { $0 != "steps:" }.prefix(4) == [
                "steps:",
                "  #6 compensated run1/4/0  garage.log",
                "  #7 compensated run1/4/1  garage.saveToDB",
                "  #8 failed      run1/4/2  garage.addToAPI  (the backend refused the vehicle 'first vehicle' (id 1))",
            ])
        let missing = try CLIRunner.run(["journal", "show", path, "nope"])
        #expect(missing.exitCode == 1)
        #expect(missing.standardError == "error: no journal record has the idempotency key 'nope'\n")
    }

    @Test func anActionWithoutAnAnswerOrYesIsRefused() throws {
        defer { removeJournal() }
        try failedGarageRun()
        let refused = try CLIRunner.run(["journal", "retry", path, "run1/4"])
        #expect(refused.exitCode == 64)
        #expect(
            refused.standardError == """
                Retry 'run1/4' in \(path)? [y/N] 
                error: no confirmation: standard input gave no answer; pass --yes to act without asking

                """)
        let declined = try CLIRunner.run(["journal", "retry", path, "run1/4"], input: "n\n")
        #expect(declined.exitCode == 1)
        #expect(declined.standardError.hasSuffix("not confirmed: nothing changed\n"))
        let untouched = try CLIRunner.run(["journal", "list", path, "--status", "pending"])
        #expect(untouched.standardOutput == "0 records\n")
    }

    @Test func retryAsForksTheWorkUnderANewKey() throws {
        defer { removeJournal() }
        try failedGarageRun()
        let noQueue = try CLIRunner.run(["journal", "retry", path, "run1/4", "--as", "run1/4-again", "--yes"])
        #expect(noQueue.exitCode == 1)
        #expect(
            noQueue.standardError
                == "error: the record 'run1/4' cannot be forked: it ran on no queue (its caller ran it); "
                + "name the queue the fork goes to\n")
        let forked = try CLIRunner.run(
            ["journal", "retry", path, "run1/4", "--as", "run1/4-again", "--queue", "garage"], input: "y\n")
        #expect(forked.exitCode == 0)
        #expect(
            forked.standardOutput
                == "forked 'run1/4' as 'run1/4-again': pending, due now on queue 'garage'; 'run1/4' stays as it was\n")
        let listed = try CLIRunner.run(["journal", "list", path, "--key-prefix", "run1/4"])
        #expect(listed.standardOutput.contains("compensated run1/4 "))
        #expect(listed.standardOutput.contains("pending     run1/4-again"))
        let queueWithoutFork = try CLIRunner.run(["journal", "retry", path, "run1/4", "--queue", "garage"])
        #expect(queueWithoutFork.exitCode == 64)
        #expect(queueWithoutFork.standardError.contains("--queue goes with --as NEWKEY"))
    }

    @Test func retryMakesAFailedRecordPendingAgain() throws {
        defer { removeJournal() }
        try failedGarageRun()
        let confirmed = try CLIRunner.run(["journal", "retry", path, "run1/4"], input: "y\n")
        #expect(confirmed.exitCode == 0)
        #expect(confirmed.standardOutput == "retried 'run1/4': pending, due now; a recovery takes it\n")
        let again = try CLIRunner.run(["journal", "retry", path, "run1/4", "--yes"])
        #expect(again.exitCode == 1)
        #expect(
            again.standardError
                == "error: the record 'run1/4' is pending: only a failed or compensated command or transaction "
                + "can be retried\n")
        let json = try CLIRunner.run(["journal", "show", path, "run1/4", "--format", "json"])
        let details = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        let record = details?["record"] as? [String: Any]
        #expect(record?["status"] as? String == "pending")
        #expect(record?["dueAt"] is String)
        #expect(record?["leaseExpiresAt"] == nil)
        #expect((details?["children"] as? [Any])?.isEmpty == true)
        let queues = try CLIRunner.run(["journal", "queues", path])
        #expect(queues.standardOutput.hasPrefix("(callers)  1 due, 0 delayed, 0 running, 0 stalled; oldest due "))
    }

    /// `activity`: each queue's last hour, with how long its records waited to be picked up; in
    /// JSON, each minute; a window that is not 1 minute to a week is refused by name.
    @Test func activityPrintsEachQueuesDoneFailedRetriedAndPickups() async throws {
        defer { removeJournal() }
        let journal = try SQLiteCommandJournal(path: path)
        let lease = JournalLease(owner: "worker-1", duration: .seconds(60))
        for key in ["mail-1", "mail-2"] {
            _ = try await journal.enqueue(
                CommandJournalEntry(idempotencyKey: key, kind: "mail.send"), queue: "mail", after: .zero)
        }
        let claimed = try await journal.claim(2, from: "mail", concurrency: nil, lease: lease).records.map(\.id)
        #expect(claimed.sorted() == ["mail-1", "mail-2"])
        try await journal.settle("mail-1", as: .done(output: nil), lease: lease)
        try await journal.settle("mail-2", as: .failed(reason: "bounced"), lease: lease)
        try await journal.close()
        let text = try CLIRunner.run(["journal", "activity", path])
        #expect(text.exitCode == 0)
        #expect(
            text.standardOutput.hasPrefix(
                "mail  1 done, 1 failed, 0 retried in the last 60 min; pickup mean "), "\(text.standardOutput)")
        #expect(text.standardOutput.hasSuffix(" (2 records)\n"), "\(text.standardOutput)")
        let json = try CLIRunner.run(["journal", "activity", path, "--minutes", "5", "--format", "json"])
        let minutes = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
        #expect(minutes?.map { $0["queue"] as? String } == ["mail"])
        #expect(minutes?.first?["pickups"] as? Int == 2)
        #expect(minutes?.first?["meanPickupMilliseconds"] is Double)
        let refused = try CLIRunner.run(["journal", "activity", path, "--minutes", "0"])
        #expect(refused.exitCode == 64)
        #expect(refused.standardError.contains("--minutes must be from 1 to 10,080"), "\(refused.standardError)")
    }

    @Test func cancelStopsADelayedRecordAndWorkersListWhatTheyHold() async throws {
        defer { removeJournal() }
        let journal = try SQLiteCommandJournal(path: path)
        _ = try await journal.enqueue(
            CommandJournalEntry(idempotencyKey: "remind-42", kind: "mail.remind"), queue: "mail", after: .seconds(3600))
        _ = try await journal.begin(
            CommandJournalEntry(idempotencyKey: "charge-42", kind: "bank.charge"),
            lease: JournalLease(owner: "worker-1", duration: .seconds(3600)))
        try await journal.close()
        let queues = try CLIRunner.run(["journal", "queues", path, "--format", "json"])
        let stats = try JSONSerialization.jsonObject(with: Data(queues.standardOutput.utf8)) as? [[String: Any]]
        #expect(stats?.map { $0["name"] as? String } == [nil, "mail"])
        #expect(stats?.map { $0["delayed"] as? Int } == [0, 1])
        #expect(stats?.map { $0["running"] as? Int } == [1, 0])
        let workers = try CLIRunner.run(["journal", "workers", path])
        #expect(workers.standardOutput.hasPrefix("worker-1  holds 1: charge-42  lease until "))
        #expect(workers.standardOutput.hasSuffix("\n1 worker holds records\n"))
        let workersJSON = try CLIRunner.run(["journal", "workers", path, "--format", "json"])
        let held = try JSONSerialization.jsonObject(with: Data(workersJSON.standardOutput.utf8)) as? [[String: Any]]
        #expect(held?.map { $0["owner"] as? String } == ["worker-1"])
        #expect(held?.first?["holds"] as? [String] == ["charge-42"])
        #expect(held?.first?["leaseExpiresAt"] is String)
        let running = try CLIRunner.run(["journal", "cancel", path, "charge-42", "--yes"])
        #expect(running.exitCode == 1)
        #expect(running.standardError.hasPrefix("error: the record 'charge-42' (pending) cannot be cancelled: "))
        let cancelled = try CLIRunner.run(["journal", "cancel", path, "remind-42", "--reason", "order returned", "-y"])
        #expect(cancelled.exitCode == 0)
        #expect(cancelled.standardOutput == "cancelled 'remind-42': failed (cancelled: order returned)\n")
        let listed = try CLIRunner.run(["journal", "list", path, "--queue", "mail"])
        #expect(
            listed.standardOutput == """
                #1 failed      remind-42  mail.remind  queue mail  (cancelled: order returned)
                1 record

                """)
    }

    @Test func pauseStopsAQueuesClaimsUntilResume() async throws {
        defer { removeJournal() }
        let journal = try SQLiteCommandJournal(path: path)
        _ = try await journal.enqueue(
            CommandJournalEntry(idempotencyKey: "remind-42", kind: "mail.remind"), queue: "mail", after: .zero)
        try await journal.close()
        let paused = try CLIRunner.run(["journal", "pause", path, "mail", "--yes"])
        #expect(paused.exitCode == 0)
        #expect(paused.standardOutput == "paused queue 'mail': its workers start nothing until it is resumed\n")
        let worker = JournalLease(owner: "worker-1", duration: .seconds(60))
        let reopened = try SQLiteCommandJournal(path: path)
        #expect(try await reopened.pausedQueues() == ["mail"])
        #expect(try await reopened.claim(1, from: "mail", concurrency: nil, lease: worker).records.isEmpty)
        try await reopened.close()
        let resumed = try CLIRunner.run(["journal", "resume", path, "mail", "--format", "json"])
        let answer = try JSONSerialization.jsonObject(with: Data(resumed.standardOutput.utf8)) as? [String: Any]
        #expect(answer?["paused"] as? Bool == false)
        #expect(answer?["pausedQueues"] as? [String] == [])
        let last = try SQLiteCommandJournal(path: path)
        #expect(
            try await last.claim(1, from: "mail", concurrency: nil, lease: worker).records.map(\.id) == ["remind-42"])
        try await last.close()
    }

    @Test func rateLimitSetShowAndRemoveAQueuesLimit() async throws {
        defer { removeJournal() }
        let journal = try SQLiteCommandJournal(path: path)
        for index in 0..<3 {
            _ = try await journal.enqueue(
                CommandJournalEntry(idempotencyKey: "mail-\(index)", kind: "mail.send"), queue: "mail", after: .zero)
        }
        try await journal.close()
        let set = try CLIRunner.run([
            "journal", "rate-limit", "set", path, "mail", "--starts", "1", "--per", "1h", "-y",
        ])
        #expect(set.exitCode == 0)
        #expect(set.standardOutput == "limited queue 'mail' to 1 start per 3600000 ms\n")
        let partitions = try CLIRunner.run([
            "journal", "rate-limit", "set", path, "mail", "--starts", "10", "--per", "1s", "--burst", "5",
            "--per-partition", "--yes",
        ])
        #expect(
            partitions.standardOutput == "limited each partition of queue 'mail' to 10 starts per 1000 ms, burst 5\n")
        let shown = try CLIRunner.run(["journal", "rate-limit", path])
        #expect(
            shown.standardOutput == """
                mail  each partition  10 starts per 1000 ms, burst 5
                mail  queue  1 start per 3600000 ms
                2 rate limits

                """)
        let worker = JournalLease(owner: "worker-1", duration: .seconds(60))
        let reopened = try SQLiteCommandJournal(path: path)
        #expect(try await reopened.claim(5, from: "mail", concurrency: nil, lease: worker).records.count == 1)
        #expect(try await reopened.claim(5, from: "mail", concurrency: nil, lease: worker).records.isEmpty)
        try await reopened.close()
        let removed = try CLIRunner.run(["journal", "rate-limit", "remove", path, "mail", "--format", "json"])
        let answer = try JSONSerialization.jsonObject(with: Data(removed.standardOutput.utf8)) as? [String: Any]
        #expect(answer?["scope"] as? String == "queue")
        #expect((answer?["rateLimits"] as? [[String: Any]])?.map { $0["scope"] as? String } == ["partition"])
        let last = try SQLiteCommandJournal(path: path)
        #expect(try await last.claim(5, from: "mail", concurrency: nil, lease: worker).records.count == 2)
        try await last.close()
    }

    @Test(arguments: [
        (["--starts", "0", "--per", "1s"], "at least 1, not 0"),
        (["--starts", "1", "--per", "0s"], "longer than zero"),
        (["--starts", "1", "--per", "soon"], "--per soon is no interval"),
        (["--starts", "1", "--per", "1s", "--burst=-1"], "0 or more, not -1"),
        (["--starts", "5000000", "--per", "1s"], "at most 1000000"),
    ])
    func rateLimitSetRefusesBadValuesNamingThem(options: [String], message: String) throws {
        let refused = try CLIRunner.run(["journal", "rate-limit", "set", path, "mail", "--yes"] + options)
        #expect(refused.exitCode == 64)
        #expect(refused.standardError.contains(message), "\(refused.standardError)")
    }

    @Test func pruneDeletesWhatSettledBeforeADate() throws {
        defer { removeJournal() }
        try failedGarageRun()
        let early = try CLIRunner.run(["journal", "prune", path, "--before", "2000-01-01T00:00:00Z", "--yes"])
        #expect(early.standardOutput == "pruned 0 records settled before 2000-01-01T00:00:00.000Z\n")
        let all = try CLIRunner.run(["journal", "prune", path, "--older-than", "0", "--yes", "--format", "json"])
        let pruned = try JSONSerialization.jsonObject(with: Data(all.standardOutput.utf8)) as? [String: Any]
        #expect(pruned?["deleted"] as? Int == 9)
        let neither = try CLIRunner.run(["journal", "prune", path, "--yes"])
        #expect(neither.exitCode == 64)
        #expect(neither.standardError.contains("give one of --before TIME or --older-than SECONDS"))
    }

    @Test func aMissingFileIsAnErrorNamingIt() throws {
        let result = try CLIRunner.run(["journal", "list", "/no/such/journal"])
        #expect(result.exitCode == 1)
        #expect(result.standardError == "error: command journal /no/such/journal: no such file\n")
    }

    @Test(
        .enabled(
            if: BuildTraits.postgreSQLUnavailableReason == nil, "skipped: no PostgreSQL here, or no PostgreSQL trait"))
    func theSubcommandsWorkOnAPostgresURL() throws {
        let cluster = try PostgresTestCluster.shared()
        let journal = cluster.url(database: try cluster.makeDatabase("operations"))
        #expect(try CLIRunner.run(["garage", "--fail-api", "--journal", journal]).exitCode == 0)
        let failed = try CLIRunner.run(["journal", "list", journal, "--status", "failed", "--status", "compensated"])
        #expect(failed.exitCode == 0, "\(failed.standardError)")
        #expect(
            failed.standardOutput == """
                #2 failed      run1/1  garage.addToAPI          (the backend refused the vehicle 'first vehicle' (id 1))
                #5 compensated run1/4  behaviorkit.transaction
                2 records

                """)
        let show = try CLIRunner.run(["journal", "show", journal, "run1/4"])
        #expect(
            show.standardOutput.contains("compensated because: the backend refused the vehicle 'first vehicle' (id 1)"))
        let retried = try CLIRunner.run(["journal", "retry", journal, "run1/4", "--yes"])
        #expect(retried.standardOutput == "retried 'run1/4': pending, due now; a recovery takes it\n")
        let queues = try CLIRunner.run(["journal", "queues", journal])
        #expect(queues.standardOutput.hasPrefix("(callers)  1 due, 0 delayed, 0 running, 0 stalled; oldest due "))
        let refused = try CLIRunner.run(["journal", "cancel", journal, "run1/1"])
        #expect(refused.exitCode == 64)
        #expect(!refused.standardError.contains("password"), "the prompt names no password")
        let pruned = try CLIRunner.run(["journal", "prune", journal, "--older-than", "0", "--yes"])
        #expect(pruned.standardOutput.hasPrefix("pruned 5 records settled before "))
    }
}
