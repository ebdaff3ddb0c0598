import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Testing

@testable import BehaviorKitPostgres

/// Workers are woken across processes: a trigger on the journal's table sends `NOTIFY` when a
/// record of a queue becomes claimable, and each journal listens on one connection. Two journals
/// on one table, each with its own pool, stand for two processes; the worker's poll is on a
/// manual clock that never moves, so only a notification can make it claim.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresQueueWakeupTests {
    @Test func aWorkerIsWokenByAnotherProcessesEnqueueFromSwiftFromSQLAndAfterItsListenerReconnects()
        async throws
    {
        let journals = try await OpenJournals("wakeups")
        let table = journals.newTable()
        let workerJournal = try await journals.open(table: table)
        let other = try await journals.open(table: table)
        let marks = LockedValue<[String]>([])
        var registry = CommandRegistry()
        registry.register("wake.mark", arguments: String.self) { name in
            ClosureCommand("mark \(name)") { marks.withLock { $0.append(name) } }
        }
        let clock = ManualClock()
        let worker = QueueWorker(
            CommandQueue("wake", journal: workerJournal),
            invoker: JournaledInvoker(journal: workerJournal, registry: registry, clock: clock),
            pollInterval: .seconds(3_600))
        let run = Task { await worker.run() }
        @Sendable func marked(_ name: String) async throws {
            try await withTimeLimit(.seconds(60)) {
                while !marks.withLock({ $0.contains(name) }) { try await Task.sleep(for: .milliseconds(5)) }
            }
        }
        do {
            try await withTimeLimit(.seconds(60)) { await clock.waitForSleepers(count: 1) }
            // Another process's enqueue, from Swift.
            try await CommandQueue("wake", journal: other).enqueue(kind: "wake.mark", arguments: "swift", key: "swift")
            try await marked("swift")
            // From SQL, as another language enqueues, in an application's transaction: woken at
            // its commit.
            try await journals.cluster.psql(
                """
                BEGIN; CREATE TABLE orders (id int); INSERT INTO orders VALUES (42);
                SELECT 1 FROM "\(table)_enqueue"('sql', 'wake.mark', '"sql"', 'wake'); COMMIT;
                """, database: journals.database)
            try await marked("sql")
            // The listener's connection terminated: it listens again, and looks for what it missed.
            let terminated = try await PostgresTestCluster.offThread {
                try journals.cluster.terminateBackends(database: journals.database)
            }
            #expect(terminated > 0)
            try await journals.cluster.psql(
                "SELECT 1 FROM \"\(table)_enqueue\"('after', 'wake.mark', '\"after\"', 'wake')",
                database: journals.database)
            try await marked("after")
        } catch {
            Issue.record("\(error); marked \(marks.withLock { $0 }); worker \(worker.statistics)")
        }
        run.cancel()
        await run.value
        await journals.closeAll()
    }

    @Test func closingAJournalStopsItsListenerAndEndsItsWakeups() async throws {
        let journals = try await OpenJournals("wakeclose")
        let journal = try await journals.open()
        let wakeups = journal.wakeups(of: "q")
        try await withTimeLimit(.seconds(60)) {
            var iterator = wakeups.makeAsyncIterator()
            _ = await iterator.next()  // listening: it wakes every queue once
            await journal.close()
            #expect(await iterator.next() == nil, "the stream ended with the journal")
        }
    }

    /// Closing the store's other view first closes the pool the listener holds a connection of.
    @Test func closingAStoresMachinesWhileItsJournalListensDoesNotHang() async throws {
        let journals = try await OpenJournals("wakestore")
        let store = try await PostgresStore(
            url: journals.url, table: journals.newTable(), tablePrefix: journals.newTable())
        let wakeups = store.journal.wakeups(of: "q")
        try await withTimeLimit(.seconds(60)) {
            var iterator = wakeups.makeAsyncIterator()
            _ = await iterator.next()
            await store.machines.close()
            await store.close()
        }
    }
}
