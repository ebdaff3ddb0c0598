import BehaviorKitSync
import BehaviorKitTesting
import Commands
import DurableMachines
import Foundation
import PostgresNIO
import Testing

@testable import BehaviorKitPostgres

/// `PostgresStore`: the journal and the machine store as views of one pool in one database.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresStoreTests {
    let worker = JournalLease(owner: "worker", duration: .seconds(30))

    /// The journal view keeps every promise of the kit on the pool's connections, which ask the
    /// server for what the machine store needs (READ COMMITTED, an idle-in-transaction timeout).
    @Test func theJournalViewPassesTheCommandJournalConformanceKit() async throws {
        let journals = try await OpenJournals("storekit")
        let url = patient(journals.url)
        let opened = LockedValue<[PostgresStore]>([])
        let tables = LockedValue(0)  // new tables for every check
        try await CommandJournalConformance.check { clock in
            let number = tables.withLock {
                $0 += 1
                return $0
            }
            let store = try await PostgresStore(
                url: url, table: "storekit_\(number)", tablePrefix: "storekit_machines_\(number)", clock: clock,
                reconnection: patientReconnection)
            opened.withLock { $0.append(store) }
            return store.journal
        }
        for store in opened.withLock({ $0 }) { await store.close() }
    }

    /// However many requests both views make at once, the database sees no more connections
    /// than one pool holds: two stores opened apart would hold twice as many.
    @Test func bothViewsShareOnePoolOfConnections() async throws {
        let journals = try await OpenJournals("storepool")
        let cluster = journals.cluster
        var configuration = PostgresClient.Configuration(
            unixSocketPath: "\(cluster.folder)/.s.PGSQL.\(cluster.port)", username: "postgres", password: nil,
            database: journals.database)
        configuration.options.maximumConnections = 2
        let store = try await PostgresStore(configuration: configuration)
        let lease = worker
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask { _ = try await store.journal.begin(entry("k\(index)"), lease: lease) }
                group.addTask {
                    let key = MachineKey(machine: "order", key: "k\(index)")
                    let commit = PostgresMachineStoreTests.commit(key, version: 1)
                    #expect(try await store.machines.commit(commit) == .committed)
                    _ = try await store.machines.instance(key)
                    _ = try await store.journal.record(forKey: "k\(index)")
                }
            }
            try await group.waitForAll()
        }
        let connections = try await cluster.psql(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(journals.database)' AND pid <> pg_backend_pid()")
        let count = Int(connections.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        #expect((1...2).contains(count), "\(count) connections for a pool of 2")
        #expect(try await store.journal.unfinished().count == 64)
        #expect(try await store.machines.countsByState(machine: "order") == ["s": 64])
        await store.close()
    }

    /// A journal's database opens as a store, and a store's database as either view alone: the
    /// tables are the same.
    @Test func aDatabaseOfEitherOpensAsAStoreAndAStoresAsEither() async throws {
        let journals = try await OpenJournals("storeviews")
        let url = journals.url
        let journal = try await PostgresCommandJournal(url: url)
        _ = try await journal.begin(entry("before"), lease: worker)
        await journal.close()

        let store = try await PostgresStore(url: url)
        #expect(try await store.journal.record(forKey: "before") != nil)
        let key = MachineKey(machine: "order", key: "k")
        #expect(try await store.machines.commit(PostgresMachineStoreTests.commit(key, version: 1)) == .committed)
        await store.close()

        let machines = try await PostgresMachineStore(url: url)
        #expect(try await machines.instance(key)?.version == 1)
        await machines.close()
        let reopened = try await PostgresCommandJournal(url: url)
        #expect(try await reopened.record(forKey: "before") != nil)
        await reopened.close()
    }

    /// Closing either view closes the store: the other refuses with `.closed`, naming itself.
    @Test func closingEitherViewClosesBoth() async throws {
        let journals = try await OpenJournals("storeclose")
        let store = try await PostgresStore(url: journals.url)
        await store.journal.close()
        do {
            _ = try await store.machines.instance(MachineKey(machine: "order", key: "k"))
            Issue.record("the machine view answered after the journal view closed")
        } catch let error as PostgresStoreError {
            #expect(error.code == .closed)
            #expect(error.tablePrefix == PostgresMachineStore.defaultTablePrefix)
        }
        do {
            _ = try await store.journal.record(forKey: "k")
            Issue.record("the journal view answered after it closed")
        } catch let error as PostgresStoreError {
            #expect(error.code == .closed)
        }
        await store.close()  // again: nothing more
    }

    /// Names are checked before anything connects, each with its own error.
    @Test func aBadTableOrPrefixIsRefusedNamingIt() async throws {
        let url = "postgres://postgres@/nowhere?host=/tmp/bk-no-such-folder"
        await #expect(throws: PostgresStoreError.self) {
            try await PostgresStore(url: url, table: "1journal")
        }
        do {
            _ = try await PostgresStore(url: url, tablePrefix: "machines-of-mine")
            Issue.record("a prefix with a '-' was accepted")
        } catch let error as PostgresStoreError {
            #expect(error.code == .invalidTablePrefix)
            #expect("\(error)".contains("machines-of-mine"))
        }
    }
}
