import BehaviorKitSync
import BehaviorKitTesting
import DurableMachines
import Foundation
import Logging
import PostgresNIO
import StateMachines
import Testing

@testable import BehaviorKitPostgres

/// `PostgresMachineStore` on a throwaway cluster: the store's rules one by one, 16 committers on
/// one key from 16 pools, stores opening one fresh database together, and tables that are not
/// the store's.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped), .serialized)
struct PostgresMachineStoreTests {
    static let key = MachineKey(machine: "order", key: "k")

    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    /// A commit of `key` making `version`, in `states`, arming and disarming timers and effects.
    static func commit(
        _ key: MachineKey = key, version: Int64, eventID: String? = nil, states: [String] = ["s"],
        at date: Date = at(1_000), timers: [String] = [], disarm: [String] = [], effects: [String] = [],
        stop: [String] = []
    ) -> MachineCommit {
        MachineCommit(
            key: key, expectedVersion: version - 1, snapshot: Array("{\"v\":\(version)}".utf8),
            states: states.map { MachineStateEntry(key: key.key, state: $0, enteredAt: date) },
            step: MachineStepRecord(sequence: version, eventID: eventID, at: date, body: Array("\(version)".utf8)),
            armedTimers: timers.map {
                MachineTimerRecord(key: key, id: $0, dueAt: date.addingTimeInterval(10), body: Array($0.utf8))
            },
            disarmedTimers: disarm, startedEffects: effects.map { MachineEffectRecord(key: key, id: $0, body: [7]) },
            stoppedEffects: stop)
    }

    /// Every check of the kit, each on a store of its own (a new table prefix in one database).
    @Test func passesTheMachineStoreConformanceKit() async throws {
        try await withStores("conformance", limit: .seconds(240), reconnection: patientReconnection, patient: true) {
            open in
            try await MachineStoreConformance.check { try await open(nil) }
        }
    }

    @Test func commitsAreVersionCheckedAndAllOrNothing() async throws {
        try await withStores("commits") { open in
            let store = try await open(nil)
            #expect(try await store.commit(Self.commit(version: 1, timers: ["t1", "t2"])) == .committed)
            #expect(try await store.commit(Self.commit(version: 1)) == .versionConflict(current: 1))
            let second = Self.commit(
                version: 2, eventID: "e", states: ["s", "u"], at: Self.at(1_001), timers: ["t3"], disarm: ["t1"])
            #expect(try await store.commit(second) == .committed)
            #expect(try await store.commit(Self.commit(version: 2)) == .versionConflict(current: 2))
            #expect(try await store.commit(Self.commit(version: 5)) == .versionConflict(current: 2))
            let missing = MachineKey(machine: "order", key: "none")
            #expect(try await store.commit(Self.commit(missing, version: 4)) == .versionConflict(current: nil))
            let duplicate = try await store.commit(
                Self.commit(version: 3, eventID: "e", timers: ["t4"], disarm: ["t2"]))
            #expect(duplicate == .duplicateEvent(second.step))
            #expect(try await store.step(Self.key, eventID: "e") == second.step)
            #expect(try await store.step(Self.key, eventID: "other") == nil)

            let instance = try #require(try await store.instance(Self.key))
            #expect(instance.version == 2)
            #expect(instance.snapshot == Array("{\"v\":2}".utf8))
            #expect(instance.states.map(\.state) == ["s", "u"])
            #expect(instance.createdAt == Self.at(1_000) && instance.updatedAt == Self.at(1_001))
            #expect(try await store.instance(missing) == nil)

            let timers = try await store.dueTimers(machine: "order", dueBy: Self.at(10_000), limit: 10)
            #expect(timers.map(\.id) == ["t2", "t3"])
            #expect(timers.first?.dueAt == Self.at(1_010))
            #expect(try await store.dueTimers(machine: "order", dueBy: Self.at(1_010), limit: 10).map(\.id) == ["t2"])
            #expect(try await store.dueTimers(machine: "order", dueBy: Self.at(10_000), limit: 1).count == 1)
            #expect(try await store.nextTimerDue(machine: "order") == Self.at(1_010))
            #expect(try await store.nextTimerDue(machine: "other") == nil)
            #expect(try await store.history(Self.key, after: 0, limit: 10).map(\.sequence) == [1, 2])
            #expect(try await store.history(Self.key, after: 1, limit: 10) == [second.step])

            // A step whose sequence is not the expected version plus one is refused, naming it.
            var skewed = Self.commit(version: 3)
            skewed.expectedVersion = 1
            await #expect(throws: PostgresStoreError.self) { try await store.commit(skewed) }
            let nul = Self.commit(MachineKey(machine: "order", key: "a\u{0}b"), version: 1)
            do {
                _ = try await store.commit(nul)
                Issue.record("a key holding U+0000 was committed")
            } catch let error as PostgresStoreError {
                #expect(error.code == .invalidValue)
                #expect("\(error)".contains("U+0000"))
            }
        }
    }

    @Test func keysAreIndexedByStateAndHistoryIsPruned() async throws {
        try await withStores("keys") { open in
            let store = try await open(nil)
            for (index, name) in ["c", "a", "b", "d"].enumerated() {
                let key = MachineKey(machine: "order", key: name)
                let states = name == "d" ? ["shipped"] : ["placed", "open"]
                #expect(
                    try await store.commit(Self.commit(key, version: 1, states: states, at: Self.at(Double(index))))
                        == .committed)
            }
            let placed = try await store.keys(machine: "order", in: "placed", enteredBefore: nil, after: nil, limit: 10)
            #expect(placed.map(\.key) == ["c", "a", "b"])
            let before = try await store.keys(
                machine: "order", in: "placed", enteredBefore: Self.at(2), after: nil, limit: 10)
            #expect(before.map(\.key) == ["c", "a"])
            let page = try await store.keys(
                machine: "order", in: "placed", enteredBefore: nil, after: placed[0], limit: 1)
            #expect(page.map(\.key) == ["a"])
            let both = try await store.keys(
                machine: "order", in: "placed", enteredBefore: Self.at(2), after: placed[0], limit: 10)
            #expect(both.map(\.key) == ["a"])
            #expect(try await store.countsByState(machine: "order") == ["placed": 3, "open": 3, "shipped": 1])
            #expect(try await store.countsByState(machine: "other") == [:])

            let key = MachineKey(machine: "order", key: "a")
            for version in Int64(2)...4 {
                let commit = Self.commit(
                    key, version: version, eventID: "e\(version)", states: ["shipped"],
                    at: Self.at(Double(version * 10)))
                #expect(try await store.commit(commit) == .committed)
            }
            #expect(try await store.countsByState(machine: "order") == ["placed": 2, "open": 2, "shipped": 2])
            // Before 35: a's steps 1 to 3; b, c and d keep their one step, their latest.
            #expect(try await store.pruneHistory(machine: "order", before: Self.at(35)) == 3)
            #expect(try await store.history(key, after: 0, limit: 10).map(\.sequence) == [4])
            #expect(try await store.step(key, eventID: "e2") == nil)
            #expect(try await store.history(MachineKey(machine: "order", key: "b"), after: 0, limit: 10).count == 1)
        }
    }

    @Test func effectLeasesAreFencedByOwnerAndAttempts() async throws {
        try await withStores("effects") { open in
            let store = try await open(nil)
            #expect(try await store.commit(Self.commit(version: 1, effects: ["e1", "e2", "e3"])) == .committed)
            let first = try await store.claimEffects(
                machine: "order", owner: "w1", now: Self.at(100), leaseExpiresAt: Self.at(130), limit: 2)
            #expect(first.map(\.id) == ["e1", "e2"])
            #expect(first.allSatisfy { $0.owner == "w1" && $0.attempts == 1 && $0.leaseExpiresAt == Self.at(130) })
            let second = try await store.claimEffects(
                machine: "order", owner: "w2", now: Self.at(110), leaseExpiresAt: Self.at(140), limit: 10)
            #expect(second.map(\.id) == ["e3"])
            #expect(
                try await store.renewEffect(Self.key, id: "e1", owner: "w1", attempts: 1, leaseExpiresAt: Self.at(150)))
            #expect(
                try await !store.renewEffect(Self.key, id: "e1", owner: "w2", attempts: 1, leaseExpiresAt: Self.at(150))
            )
            #expect(
                try await !store.renewEffect(Self.key, id: "e1", owner: "w1", attempts: 2, leaseExpiresAt: Self.at(150))
            )
            // e2's lease ended at 130: w3 takes it over, and w1 can no longer finish it.
            let takeover = try await store.claimEffects(
                machine: "order", owner: "w3", now: Self.at(135), leaseExpiresAt: Self.at(165), limit: 10)
            #expect(takeover.map(\.id) == ["e2"])
            #expect(takeover.first?.attempts == 2)
            #expect(try await !store.finishEffect(Self.key, id: "e2", owner: "w1", attempts: 1))
            #expect(try await store.finishEffect(Self.key, id: "e2", owner: "w3", attempts: 2))
            #expect(try await !store.finishEffect(Self.key, id: "e2", owner: "w3", attempts: 2))
            // Leaving the state stops e1: its owner's renewal fails.
            #expect(try await store.commit(Self.commit(version: 2, stop: ["e1"])) == .committed)
            #expect(
                try await !store.renewEffect(Self.key, id: "e1", owner: "w1", attempts: 1, leaseExpiresAt: Self.at(200))
            )
            let left = try await store.claimEffects(
                machine: "order", owner: "w4", now: Self.at(1_000), leaseExpiresAt: Self.at(1_030), limit: 10)
            #expect(left.map(\.id) == ["e3"])
            #expect(left.first?.attempts == 2)
            // Started again under its id, e3 is free again but keeps its attempts: w4's token stays stale.
            #expect(try await store.commit(Self.commit(version: 3, effects: ["e3"])) == .committed)
            let again = try await store.claimEffects(
                machine: "order", owner: "w5", now: Self.at(1_001), leaseExpiresAt: Self.at(1_031), limit: 10)
            #expect(again.map(\.attempts) == [3])
            #expect(try await !store.finishEffect(Self.key, id: "e3", owner: "w4", attempts: 2))
            #expect(try await store.finishEffect(Self.key, id: "e3", owner: "w5", attempts: 3))
        }
    }

    /// A commit on the app's own connection joins its transaction: rolled back with it, and its
    /// conflicts answered there.
    @Test func aCommitJoinsTheAppsTransaction() async throws {
        try await withOwnCluster("joined") { cluster, database, url in
            let store = try await PostgresMachineStore(url: url)
            try await cluster.psql("CREATE TABLE stock (sku text PRIMARY KEY, count int)", database: database)
            try await cluster.psql("INSERT INTO stock VALUES ('a', 10)", database: database)
            let client = PostgresClient(
                configuration: .init(
                    unixSocketPath: "\(cluster.folder)/.s.PGSQL.\(cluster.port)", username: "postgres", password: nil,
                    database: database))
            let running = Task { await client.run() }
            let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
            struct Abandon: Error {}
            do {
                try await withTimeLimit(.seconds(30), "joined commits") {
                    let started = try await client.withTransaction(logger: logger) { connection in
                        try await connection.query("UPDATE stock SET count = count - 1", logger: logger)
                        return try await store.commit(Self.commit(version: 1), on: connection)
                    }
                    #expect(started == .committed)
                    await #expect(throws: PostgresTransactionError.self) {
                        try await client.withTransaction(logger: logger) { connection in
                            try await connection.query("UPDATE stock SET count = count - 1", logger: logger)
                            #expect(try await store.commit(Self.commit(version: 2), on: connection) == .committed)
                            throw Abandon()
                        }
                    }
                    let conflict = try await client.withTransaction(logger: logger) { connection in
                        try await store.commit(Self.commit(version: 1), on: connection)
                    }
                    #expect(conflict == .versionConflict(current: 1))
                    #expect(try await store.instance(Self.key)?.version == 1)
                    #expect(try await store.history(Self.key, after: 0, limit: 10).map(\.sequence) == [1])
                    let count = try await cluster.psql("SELECT count FROM stock", database: database)
                    #expect(count.trimmingCharacters(in: .whitespacesAndNewlines) == "9")
                }
            } catch {
                running.cancel()
                await store.close()
                throw error
            }
            running.cancel()
            await store.close()
        }
    }

    enum Light: String, Codable, Sendable { case red, green }
    enum Signal: String, Codable, Sendable { case go, stop }
    static let light = StateMachineDefinition<Light, Signal, Int>(initial: .red) {
        In(.red) { On(.go, to: .green) { $0 += 1 } }
        In(.green) { On(.stop, to: .red) }
    }

    /// `DurableMachine.send(_:to:id:in:)` through ``PostgresMachineStore/transaction(_:)``: the
    /// step commits with the application's write or not at all; a replay is told, so that the
    /// application rolls its repeat back.
    @Test func aStepSentInTheAppsTransactionCommitsWithItOrNotAtAll() async throws {
        try await withOwnCluster("appstep") { cluster, database, url in
            let store = try await PostgresMachineStore(url: url)
            try await cluster.psql("CREATE TABLE payment (id int PRIMARY KEY)", database: database)
            let client = PostgresClient(
                configuration: .init(
                    unixSocketPath: "\(cluster.folder)/.s.PGSQL.\(cluster.port)", username: "postgres", password: nil,
                    database: database))
            let running = Task { await client.run() }
            let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
            let lights = DurableMachine("light", definition: Self.light, store: store)
            struct Declined: Error {}
            @Sendable func payments() async throws -> String {
                try await cluster.psql("SELECT count(*) FROM payment", database: database)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            do {
                try await withTimeLimit(.seconds(30), "steps in the app's transaction") {
                    _ = try await client.withTransaction(logger: logger) { connection in
                        try await lights.start("l0", context: 0, in: store.transaction(connection))
                    }
                    #expect(try await lights.instance("l0")?.state == .red)
                    try await lights.start("l1", context: 0)
                    // The application's write fails after the step: neither is kept.
                    await #expect(throws: PostgresTransactionError.self) {
                        try await client.withTransaction(logger: logger) { connection in
                            try await lights.send(.go, to: "l1", id: "r1", in: store.transaction(connection))
                            try await connection.query("INSERT INTO payment VALUES (1)", logger: logger)
                            throw Declined()
                        }
                    }
                    #expect(try await lights.instance("l1")?.state == .red)
                    #expect(try await payments() == "0")
                    // Both commit together; a retry of the same request is a replay, rolled back.
                    let step = try await client.withTransaction(logger: logger) { connection in
                        try await connection.query("INSERT INTO payment VALUES (1)", logger: logger)
                        return try await lights.send(.go, to: "l1", id: "r1", in: store.transaction(connection))
                    }
                    #expect(!step.isReplay && step.configuration == [.green])
                    await #expect(throws: PostgresTransactionError.self) {
                        try await client.withTransaction(logger: logger) { connection in
                            try await connection.query("INSERT INTO payment VALUES (2)", logger: logger)
                            let transaction = store.transaction(connection)
                            let again = try await lights.send(.go, to: "l1", id: "r1", in: transaction)
                            if again.isReplay { throw Declined() }
                        }
                    }
                    #expect(try await payments() == "1")
                    let instance = try await lights.instance("l1")
                    #expect(instance?.state == .green && instance?.context == 1 && instance?.version == 2)
                }
            } catch {
                running.cancel()
                await store.close()
                throw error
            }
            running.cancel()
            await store.close()
        }
    }

    /// 16 committers on one key, each on a store (a pool) of its own: every commit reads the
    /// instance, commits the next version, and on a conflict reads again. Every version is
    /// committed exactly once, nobody gets an error, and the history is the path 1…N.
    @Test func sixteenCommittersOnOneKeyCommitEachVersionOnce() async throws {
        try await withStores("contended") { open in
            let committers = 16
            let perCommitter = 20
            var stores: [PostgresMachineStore] = []
            for _ in 0..<committers { stores.append(try await open("behaviorkit_machine")) }
            #expect(try await stores[0].commit(Self.commit(version: 1)) == .committed)
            let conflicts = LockedValue(0)
            let won = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for (index, store) in stores.enumerated() {
                    group.addTask {
                        var versions: [Int64] = []
                        for round in 0..<perCommitter {
                            while true {
                                let current = try #require(try await store.instance(Self.key)).version
                                let commit = Self.commit(
                                    version: current + 1, eventID: "c\(index)-r\(round)",
                                    states: ["s\(current % 3)"], timers: ["t\(current)"], disarm: ["t\(current - 1)"])
                                let result = try await store.commit(commit)
                                if result == .committed {
                                    versions.append(current + 1)
                                    break
                                }
                                guard case .versionConflict(let now?) = result, now > current else {
                                    Issue.record("committer \(index) got \(result) at version \(current)")
                                    return versions
                                }
                                conflicts.withLock { $0 += 1 }
                            }
                        }
                        return versions
                    }
                }
                var all: [Int64] = []
                for try await versions in group { all += versions }
                return all
            }
            let total = committers * perCommitter
            #expect(won.count == total)
            #expect(Set(won).count == total, "a version was committed twice")
            #expect(won.sorted() == Array(2...Int64(total + 1)))
            let instance = try #require(try await stores[0].instance(Self.key))
            #expect(instance.version == Int64(total + 1))
            let history = try await stores[0].history(Self.key, after: 0, limit: total + 10)
            #expect(history.map(\.sequence) == Array(1...Int64(total + 1)))
            #expect(Set(history.compactMap(\.eventID)).count == total)
            let timers = try await stores[0].dueTimers(machine: "order", dueBy: Self.at(10_000), limit: 10)
            #expect(timers.map(\.id) == ["t\(total)"])
            print("16 committers on one key: \(total) commits, \(conflicts.withLock { $0 }) conflicts answered")
        }
    }

    /// Commits under way when the server terminates every backend, three times, and during a
    /// 1 s outage: every commit is answered `.committed` exactly once (a lost COMMIT is resolved
    /// with `txid_status`), none fails, none hangs.
    @Test func commitsRideOutTerminatedBackendsAndAnOutage() async throws {
        try await withOwnCluster("terminated") { cluster, database, url in
            let store = try await PostgresMachineStore(url: url)
            let stop = LockedValue(false)
            do {
                try await withTimeLimit(.seconds(60), "commits across terminated backends") {
                    try await withThrowingTaskGroup(of: Int.self) { group in
                        for index in 0..<4 {
                            group.addTask {
                                let key = MachineKey(machine: "order", key: "k\(index)")
                                var version: Int64 = 0
                                while !stop.withLock({ $0 }) || version < 5 {
                                    let result = try await store.commit(
                                        Self.commit(key, version: version + 1, eventID: "e\(version)"))
                                    #expect(result == .committed, "\(key) at \(version) gave \(result)")
                                    guard result == .committed else { break }
                                    version += 1
                                }
                                let instance = try await store.instance(key)
                                #expect(instance?.version == version)
                                let history = try await store.history(key, after: 0, limit: 100_000)
                                #expect(history.map(\.sequence) == Array(1...version))
                                return Int(version)
                            }
                        }
                        group.addTask {
                            for _ in 0..<3 {
                                try await Task.sleep(for: .milliseconds(300))
                                try await PostgresTestCluster.offThread {
                                    try cluster.terminateBackends(database: database)
                                }
                            }
                            try await PostgresTestCluster.offThread { try cluster.stopServer() }
                            try await Task.sleep(for: .seconds(1))
                            try await PostgresTestCluster.offThread { try cluster.startServer() }
                            try await Task.sleep(for: .milliseconds(300))
                            stop.withLock { $0 = true }
                            return 0
                        }
                        var commits = 0
                        for try await count in group { commits += count }
                        print("commits across terminated backends and an outage: \(commits)")
                    }
                }
            } catch {
                stop.withLock { $0 = true }
                await store.close()
                throw error
            }
            await store.close()
        }
    }

    /// On a database whose default is SERIALIZABLE, the store's connections still run at READ
    /// COMMITTED (and end a session idle in a transaction past the request timeout): committers
    /// racing on one key get conflicts, never serialization failures.
    @Test func aSerializableDatabaseDefaultChangesNothing() async throws {
        try await withOwnCluster("serializable") { cluster, database, url in
            try await cluster.psql(
                "ALTER DATABASE \(database) SET default_transaction_isolation = 'serializable'", database: database)
            var opened: [PostgresMachineStore] = []
            for _ in 0..<8 {
                opened.append(
                    try await PostgresMachineStore(url: url, reconnection: .init(requestTimeout: .seconds(3))))
            }
            let stores = opened
            let logger = stores[0].connections.logger
            do {
                try await withTimeLimit(.seconds(60), "committers on a serializable database") {
                    let settings = try await stores[0].connections.withConnection { connection in
                        let rows = try await connection.query(
                            """
                            SELECT current_setting('transaction_isolation'),
                                current_setting('idle_in_transaction_session_timeout')
                            """, logger: logger
                        ).collect()
                        return try rows.first.map { try $0.decode((String, String).self) }
                    }
                    #expect(settings?.0 == "read committed" && settings?.1 == "3s", "\(String(describing: settings))")
                    #expect(try await stores[0].commit(Self.commit(version: 1)) == .committed)
                    let won = try await withThrowingTaskGroup(of: Int.self) { group in
                        for (index, store) in stores.enumerated() {
                            group.addTask {
                                var won = 0
                                for round in 0..<10 {
                                    while true {
                                        let current = try #require(try await store.instance(Self.key)).version
                                        let commit = Self.commit(version: current + 1, eventID: "c\(index)-\(round)")
                                        if try await store.commit(commit) == .committed { break }
                                    }
                                    won += 1
                                }
                                return won
                            }
                        }
                        return try await group.reduce(0, +)
                    }
                    #expect(won == 80)
                    #expect(try await stores[0].instance(Self.key)?.version == 81)
                }
            } catch {
                for store in stores { await store.close() }
                throw error
            }
            for store in stores { await store.close() }
        }
    }

    /// Stores opening one fresh database together all open (the tables made once, under the
    /// advisory lock), and see each other's commits.
    @Test func storesOpeningOneFreshDatabaseTogetherAllWork() async throws {
        try await withOwnCluster("fresh") { cluster, _, _ in
            for round in 0..<3 {
                let database = try await cluster.makeDatabase("fresh\(round)")
                let url = cluster.url(database: database)
                let stores = try await withThrowingTaskGroup(of: PostgresMachineStore.self) { group in
                    for _ in 0..<4 { group.addTask { try await PostgresMachineStore(url: url) } }
                    var stores: [PostgresMachineStore] = []
                    for try await store in group { stores.append(store) }
                    return stores
                }
                for (index, store) in stores.enumerated() {
                    let key = MachineKey(machine: "order", key: "k\(index)")
                    #expect(try await store.commit(Self.commit(key, version: 1)) == .committed)
                }
                for store in stores {
                    #expect(try await store.countsByState(machine: "order") == ["s": stores.count])
                    await store.close()
                }
            }
        }
    }

    @Test func tablesThatAreNotTheStoresAreRefusedAndPrefixesChecked() async throws {
        try await withOwnCluster("foreign") { cluster, database, url in
            try await cluster.psql("CREATE TABLE shop_step (id int)", database: database)
            do {
                _ = try await PostgresMachineStore(url: url, tablePrefix: "shop")
                Issue.record("a foreign shop_step table was taken for the store's")
            } catch let error as PostgresStoreError {
                #expect(error.code == .notAMachineStore)
                #expect(error.reason.contains("shop_step"))
            }
            do {
                _ = try await PostgresMachineStore(url: url, tablePrefix: "1-bad")
                Issue.record("the prefix 1-bad was accepted")
            } catch let error as PostgresStoreError {
                #expect(error.code == .invalidTablePrefix)
            }
            let store = try await PostgresMachineStore(url: url, tablePrefix: "shop2")
            await store.close()
            do {
                _ = try await store.instance(Self.key)
                Issue.record("a closed store answered")
            } catch let error as PostgresStoreError {
                #expect(error.code == .closed)
            }
        }
    }
}

/// Runs `body` with a cluster of its own and a function that opens stores on one database
/// (under a new prefix each, unless given one), within `limit`; then closes them.
func withStores(
    _ prefix: String, limit: Duration = .seconds(60),
    reconnection: PostgresMachineStore.Reconnection = PostgresMachineStore.Reconnection(), patient: Bool = false,
    _ body: @escaping @Sendable (_ open: @Sendable (String?) async throws -> PostgresMachineStore) async throws -> Void
) async throws {
    try await withOwnCluster(prefix) { _, _, url in
        let opened = LockedValue<[PostgresMachineStore]>([])
        let counter = LockedValue(0)
        let open: @Sendable (String?) async throws -> PostgresMachineStore = { tablePrefix in
            let number = counter.withLock {
                $0 += 1
                return $0
            }
            let store = try await PostgresMachineStore(
                url: patient ? BehaviorKitPostgresTests.patient(url) : url,
                tablePrefix: tablePrefix ?? "\(prefix)_\(number)", reconnection: reconnection)
            opened.withLock { $0.append(store) }
            return store
        }
        let result: Result<Void, any Error>
        do {
            try await withTimeLimit(limit, prefix) { try await body(open) }
            result = .success(())
        } catch {
            result = .failure(error)
        }
        for store in opened.withLock({ $0 }) {
            _ = try? await withTimeLimit(.seconds(5), "closing a store") { await store.close() }
        }
        try result.get()
    }
}
