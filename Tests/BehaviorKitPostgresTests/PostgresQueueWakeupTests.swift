import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
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
        let (worker, clock, marks) = Self.markingWorker(workerJournal, slots: 1)
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

    /// A bulk enqueue notifies once itself: the trigger's function runs for none of its rows
    /// (a log of its calls stays empty), another process's worker is woken all the same, and the
    /// next enqueue on the connection is the trigger's again. A table whose trigger an earlier
    /// release made (no `quiet` in its condition) gets it made again when a journal opens it.
    @Test func aBulkEnqueueNotifiesOnceItselfAndTheTriggerTakesTheNextWrite() async throws {
        let journals = try await OpenJournals("bulkwake")
        let table = journals.newTable()
        let workerJournal = try await journals.open(table: table)
        let trigger = PostgresQueueNotifications.trigger(table)
        // The trigger as an earlier release made it; a journal opening the table makes it again.
        try await journals.cluster.psql(
            """
            DROP TRIGGER "\(trigger)" ON "\(table)";
            CREATE TRIGGER "\(trigger)" AFTER INSERT OR UPDATE OF status, owner, lease_expires_at ON "\(table)"
            FOR EACH ROW WHEN (NEW.queue IS NOT NULL AND NEW.status = 'pending' AND NEW.owner IS NULL)
            EXECUTE FUNCTION "\(trigger)"();
            """, database: journals.database)
        let other = try await journals.open(table: table)
        let definition = try await journals.cluster.psql(
            "SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE tgname = '\(trigger)'", database: journals.database)
        #expect(definition.contains(PostgresQueueNotifications.quiet))
        // Its function, logging each call.
        try await journals.cluster.psql(
            """
            CREATE TABLE fired (queue text);
            CREATE OR REPLACE FUNCTION "\(trigger)"() RETURNS trigger LANGUAGE plpgsql AS $fn$
            BEGIN
                INSERT INTO fired VALUES (NEW.queue);
                PERFORM pg_notify('\(PostgresQueueNotifications.channel(table))', NEW.queue);
                RETURN NULL;
            END
            $fn$;
            """, database: journals.database)
        let (worker, clock, marks) = Self.markingWorker(workerJournal, slots: 4)
        let run = Task { await worker.run() }
        @Sendable func marked(_ names: [String]) async throws {
            try await withTimeLimit(.seconds(60)) {
                while !Set(names).isSubset(of: marks.withLock({ Set($0) })) {
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
        }
        @Sendable func fired() async throws -> String {
            try await journals.cluster.psql("SELECT count(*) FROM fired", database: journals.database)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        do {
            try await withTimeLimit(.seconds(60)) { await clock.waitForSleepers(count: 1) }
            let queue = CommandQueue("wake", journal: other)
            let jobs = try ["b1", "b2", "b3"].map { name in
                try QueuedJob(kind: "wake.mark", arguments: name, key: name)
            }
            _ = try await queue.enqueue(contentsOf: jobs)
            try await marked(["b1", "b2", "b3"])
            #expect(try await fired() == "0", "the trigger ran for the bulk enqueue's rows")
            try await queue.enqueue(kind: "wake.mark", arguments: "single", key: "single")
            try await marked(["single"])
            #expect(try await fired() == "1", "the trigger did not run for the next enqueue")
        } catch {
            Issue.record("\(error); marked \(marks.withLock { $0 }); worker \(worker.statistics)")
        }
        run.cancel()
        await run.value
        await journals.closeAll()
    }

    /// A worker of queue `wake` on `journal` whose `wake.mark` jobs note their argument in
    /// `marks`; its poll is on a manual clock that never moves, so only a notification wakes it.
    static func markingWorker(
        _ journal: PostgresCommandJournal, slots: Int
    ) -> (worker: QueueWorker, clock: ManualClock, marks: LockedValue<[String]>) {
        let marks = LockedValue<[String]>([])
        var registry = CommandRegistry()
        registry.register("wake.mark", arguments: String.self) { name in
            ClosureCommand("mark \(name)") { marks.withLock { $0.append(name) } }
        }
        let clock = ManualClock()
        let worker = QueueWorker(
            CommandQueue("wake", journal: journal),
            invoker: JournaledInvoker(journal: journal, registry: registry, clock: clock), slots: slots,
            pollInterval: .seconds(3_600))
        return (worker, clock, marks)
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
