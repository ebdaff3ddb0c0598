import BehaviorKitPostgres
import BehaviorKitSync
import Commands
import Foundation
import Testing

/// The journal rides out what happens to a server in production: a restart
/// (`pg_ctl restart -m fast`), its connections terminated (`pg_terminate_backend`), an outage of
/// a few seconds; and gives up, naming the server and the cause, when the server stays away
/// past the deadline. Each test runs a cluster of its own (so that stopping it disturbs no
/// other test) and is bounded by a time limit, so that a hang fails it.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped), .serialized)
struct PostgresJournalReconnectTests {
    let lease = JournalLease(owner: "worker", duration: .seconds(60))

    /// Over TCP, where postgres-nio can leave a query unanswered for good after a restart.
    @Test func restartsMidLoopAreRiddenOut() async throws {
        try await withOwnCluster("restart", tcp: true) { cluster, database, _ in
            let journal = try await PostgresCommandJournal(url: cluster.tcpURL(database: database), table: "jobs")
            try await bounded(journal, "loops across restarts") {
                let count = try await self.loops(journal, "k") {
                    for _ in 0..<3 {
                        try await PostgresTestCluster.offThread { try cluster.restartServer() }
                        try await Task.sleep(for: .milliseconds(300))
                    }
                }
                #expect(try await journal.unfinished().isEmpty)
                #expect(try await journal.allRecords().count == count)
            }
        }
    }

    @Test func terminatedConnectionsAreReplaced() async throws {
        try await withOwnCluster("terminate") { cluster, database, url in
            let journal = try await PostgresCommandJournal(url: url, table: "jobs")
            try await bounded(journal, "loops across terminated backends") {
                // Terminated while idle: the next request, a read or a write, gets a new connection.
                try await self.cycle(journal, "before")
                for round in 0..<2 {
                    let terminated = try await PostgresTestCluster.offThread {
                        try cluster.terminateBackends(database: database)
                    }
                    #expect(terminated > 0, "the journal had no connection to terminate")
                    if round == 0 {
                        _ = try await journal.record(forKey: "before")
                    } else {
                        _ = try await journal.begin(entry("idle\(round)"), lease: self.lease)
                    }
                }
                // Terminated while requests are under way, three times.
                let count = try await self.loops(journal, "busy") {
                    for _ in 0..<3 {
                        try await Task.sleep(for: .milliseconds(100))
                        try await PostgresTestCluster.offThread { try cluster.terminateBackends(database: database) }
                    }
                }
                #expect(try await journal.allRecords().count == count + 2)
            }
        }
    }

    @Test func operationsDuringAnOutageSucceedAfterIt() async throws {
        try await withOwnCluster("outage") { cluster, database, url in
            let journal = try await PostgresCommandJournal(url: url, table: "jobs")
            try await self.cycle(journal, "before")
            try await bounded(journal, "operations across a 3 s outage") {
                try await PostgresTestCluster.offThread { try cluster.stopServer() }
                let stopped = ContinuousClock.now
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<8 {
                        group.addTask { try await self.cycle(journal, "during\(index)") }
                    }
                    group.addTask { _ = try await journal.record(forKey: "before") }
                    group.addTask {
                        try await Task.sleep(for: .seconds(3))
                        try await PostgresTestCluster.offThread { try cluster.startServer() }
                    }
                    try await group.waitForAll()
                }
                #expect(ContinuousClock.now - stopped >= .seconds(3))
                #expect(try await journal.allRecords().count == 9)
                #expect(try await journal.unfinished().isEmpty)
            }
        }
    }

    /// Without resolved commits, a write is tried again only when it never reached a
    /// connection: as during an outage.
    @Test func writesThatNeverReachedTheServerAreTriedAgainWithoutResolvedCommits() async throws {
        try await withOwnCluster("plain") { cluster, _, url in
            let journal = try await PostgresCommandJournal(
                url: url, table: "jobs", reconnection: .init(resolvesLostCommits: false, seed: 3))
            try await self.cycle(journal, "before")
            try await bounded(journal, "writes across a 1 s outage") {
                try await PostgresTestCluster.offThread { try cluster.stopServer() }
                async let restarted: Void = {
                    try await Task.sleep(for: .seconds(1))
                    try await PostgresTestCluster.offThread { try cluster.startServer() }
                }()
                _ = try await journal.begin(entry("during"), lease: self.lease)
                _ = try await journal.enqueue(entry("queued"), queue: "q", after: .zero)
                try await restarted
                #expect(try await journal.allRecords().count == 3)
            }
        }
    }

    @Test func aServerGoneForGoodFailsAtTheDeadlineNamingServerAndCause() async throws {
        try await withOwnCluster("gone") { cluster, database, url in
            let journal = try await PostgresCommandJournal(url: url + "&reconnect_timeout=2", table: "jobs")
            try await self.cycle(journal, "before")
            try await bounded(journal, "requests to a stopped server") {
                try await PostgresTestCluster.offThread { try cluster.stopServer() }
                let requests: [(String, @Sendable () async throws -> Void)] = [
                    ("a read", { _ = try await journal.record(forKey: "before") }),
                    ("a write", { _ = try await journal.begin(entry("after"), lease: self.lease) }),
                    ("a claim", { _ = try await journal.claim(1, from: "q", concurrency: nil, lease: self.lease) }),
                ]
                for (name, request) in requests {
                    let started = ContinuousClock.now
                    do {
                        try await request()
                        Issue.record("\(name) answered with the server stopped")
                    } catch let error as PostgresStoreError {
                        let elapsed = started.duration(to: .now)
                        #expect(error.code == .unreachable, "\(name): \(error)")
                        #expect(elapsed >= .seconds(2) && elapsed < .seconds(4), "\(name) failed after \(elapsed)")
                        let text = "\(error)"
                        let server = "\(cluster.folder)/.s.PGSQL.\(cluster.port)/\(database)"
                        #expect(!text.contains("\n") && !text.contains("PSQLError"), "\(text)")
                        #expect(
                            text
                                == "cannot reach PostgreSQL at \(server) for 2 s: no such socket: no server is running "
                                + "there (journal jobs; nothing was written)")
                    }
                }
            }
        }
    }

    @Test func aShortDeadlineFromTheConfigurationToo() async throws {
        try await withOwnCluster("deadline") { cluster, _, url in
            let journal = try await PostgresCommandJournal(
                url: url, table: "jobs", reconnection: .init(deadline: .milliseconds(500), seed: 1))
            try await bounded(journal, "a read of a stopped server") {
                try await PostgresTestCluster.offThread { try cluster.stopServer() }
                let started = ContinuousClock.now
                await #expect(throws: PostgresStoreError.self) { _ = try await journal.allRecords() }
                #expect(started.duration(to: .now) < .seconds(2))
            }
        }
    }

    /// Runs 4 loops of ``cycle(_:_:)`` while `fault` runs (started after 10 cycles each), and 10
    /// cycles each after it ended; returns how many cycles ran.
    private func loops(
        _ journal: PostgresCommandJournal, _ prefix: String, during fault: @escaping @Sendable () async throws -> Void
    ) async throws -> Int {
        let over = LockedValue(false)
        let started = LockedValue(0)
        let faulted = Task {
            while started.withLock({ $0 }) < 4 { try await Task.sleep(for: .milliseconds(5)) }
            try await fault()
            over.withLock { $0 = true }
        }
        let result = await Result { () async throws -> Int in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for loop in 0..<4 {
                    group.addTask {
                        var index = 0
                        var after = 0
                        while after < 10 {
                            try await self.cycle(journal, "\(prefix)-\(loop)-\(index)")
                            index += 1
                            if index == 10 { started.withLock { $0 += 1 } }
                            if over.withLock({ $0 }) { after += 1 }
                        }
                        return index
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        if case .failure = result { faulted.cancel() }
        let fault = await faulted.result
        let count = try result.get()
        try fault.get()
        return count
    }

    /// Begins `key`, reads it back, and settles it.
    private func cycle(_ journal: PostgresCommandJournal, _ key: String) async throws {
        let begun = try await journal.begin(entry(key), lease: lease)
        #expect(begun.record.id == key)
        #expect(try await journal.record(forKey: key)?.id == key)
        try await journal.settle(key, as: .done(output: nil), lease: lease)
    }
}

/// Runs `body` with a cluster of its own (listening on TCP too when asked), the name of a
/// database in it and the database's URL (on the cluster's Unix socket);
/// then closes the journals `body` opened (within 5 s: a hung journal must not hang the run)
/// and stops the cluster.
func withOwnCluster(
    _ prefix: String, tcp: Bool = false, _ body: (PostgresTestCluster, String, String) async throws -> Void
) async throws {
    let cluster = try await PostgresTestCluster.offThread {
        try PostgresTestCluster(port: tcp ? try PostgresTestCluster.freePort() : 5433, tcp: tcp)
    }
    let result: Result<Void, any Error>
    do {
        let database = try await cluster.makeDatabase(prefix)
        try await body(cluster, database, cluster.url(database: database))
        result = .success(())
    } catch {
        result = .failure(error)
    }
    _ = try? await PostgresTestCluster.offThread { cluster.stop() }
    try result.get()
}

/// Runs `work` within `limit`, then closes `journal` whatever happened.
func bounded(
    _ journal: PostgresCommandJournal, _ what: String, limit: Duration = .seconds(60),
    _ work: @escaping @Sendable () async throws -> Void
) async throws {
    let result: Result<Void, any Error>
    do {
        try await withTimeLimit(limit, what, work)
        result = .success(())
    } catch {
        result = .failure(error)
    }
    await close(journal)
    try result.get()
}

extension Result where Failure == any Error {
    /// What `body` returned or threw.
    init(_ body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

/// Closes `journal`, giving up after 5 s.
func close(_ journal: PostgresCommandJournal) async {
    _ = try? await withTimeLimit(.seconds(5), "close()") { await journal.close() }
}
