import BehaviorKitSQLite
import BehaviorKitTesting
import Commands
import DurableMachines
import Foundation
import GRDB
import StateMachines
import Testing

struct SQLiteMachineStoreTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func passesTheMachineStoreConformanceKit() async throws {
        let counter = FileCounter()
        try await MachineStoreConformance.check {
            try SQLiteMachineStore(path: folder.path("conformance-\(counter.next()).machines"))
        }
    }

    @Test func aStepSurvivesReopening() async throws {
        let path = folder.path("reopen.machines")
        let first = try SQLiteMachineStore(path: path)
        let key = MachineKey(machine: "m", key: "k")
        let commit = MachineCommit(
            key: key, expectedVersion: 0, snapshot: Array("{}".utf8),
            states: [MachineStateEntry(key: "k", state: "s", enteredAt: Date(timeIntervalSince1970: 5))],
            step: MachineStepRecord(sequence: 1, eventID: "e", at: Date(timeIntervalSince1970: 5), body: [1]))
        #expect(try await first.commit(commit) == .committed)
        try await first.close()
        let second = try SQLiteMachineStore(path: path)
        let instance = try await second.instance(key)
        #expect(instance?.version == 1 && instance?.states.map(\.state) == ["s"])
        #expect(try await second.step(key, eventID: "e")?.body == [1])
        try await second.close()
    }

    @Test func aFileOfSomethingElseIsRefusedAndLeftAsItWas() async throws {
        let path = folder.path("other.db")
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in try db.execute(sql: "CREATE TABLE invoices (id INTEGER PRIMARY KEY)") }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            _ = try SQLiteMachineStore(path: path)
        } throws: { error in
            "\(error)".contains("not a machine store") && "\(error)".contains("invoices")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}

extension SQLiteMachineStoreTests {
    enum Light: String, Codable, Sendable { case red, green }
    enum Signal: String, Codable, Sendable { case go, stop }
    static let light = StateMachineDefinition<Light, Signal, Int>(initial: .red) {
        In(.red) { On(.go, to: .green) { $0 += 1 } }
        In(.green) { On(.stop, to: .red) }
    }

    @Test func aCommandJournalIsRefusedAndNoFileIsAddedBesideIt() async throws {
        let path = folder.path("orders.journal")
        let journal = try SQLiteCommandJournal(path: path)
        _ = try await journal.enqueue(CommandJournalEntry(idempotencyKey: "k", kind: "k"), queue: "q", after: .zero)
        try await journal.close()
        let manager = FileManager.default
        #expect(!manager.fileExists(atPath: path + "-wal") && !manager.fileExists(atPath: path + "-shm"))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: SQLiteStoreError.self) { _ = try SQLiteMachineStore(path: path) }
        #expect(error?.code == .notAMachineStore && error?.part == .machineStore)
        #expect("\(error.map { "\($0)" } ?? "")".hasPrefix("machine store \(path): it is a command journal"))
        #expect("\(error.map { "\($0)" } ?? "")".contains("SQLiteStore(path:)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let beside = try manager.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
        #expect(beside.filter { $0.hasPrefix("orders.journal") } == ["orders.journal"], "\(beside)")
    }

    @Test func aStepCommitsWithTheApplicationsWritesOrNotAtAll() async throws {
        let pool = try DatabasePool(path: folder.path("app.db"))
        var migrator = DatabaseMigrator()
        migrator.registerMigration("app") { db in try db.execute(sql: "CREATE TABLE payment (id INTEGER PRIMARY KEY)") }
        SQLiteMachineStore.registerMigrations(in: &migrator)
        try migrator.migrate(pool)
        let store = SQLiteMachineStore(database: pool, path: pool.path)
        let lights = DurableMachine("light", definition: Self.light, store: store)
        try await lights.start("l1", context: 0)

        struct Declined: Error {}
        // The application's write fails after the step: neither is kept.
        await #expect(throws: Declined.self) {
            try await pool.write { db in
                try lights.send(.go, to: "l1", id: "r1", in: store.transaction(db))
                try db.execute(sql: "INSERT INTO payment (id) VALUES (1)")
                throw Declined()
            }
        }
        #expect(try await lights.instance("l1")?.state == .red)
        #expect(try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM payment") } == 0)

        // Both commit together; a retry of the same request is a replay, and rolls its repeat back.
        let step = try await pool.write { db in
            try db.execute(sql: "INSERT INTO payment (id) VALUES (1)")
            return try lights.send(.go, to: "l1", id: "r1", in: store.transaction(db))
        }
        #expect(!step.isReplay && step.configuration == [.green])
        await #expect(throws: Declined.self) {
            try await pool.write { db in
                try db.execute(sql: "INSERT INTO payment (id) VALUES (2)")
                if try lights.send(.go, to: "l1", id: "r1", in: store.transaction(db)).isReplay { throw Declined() }
            }
        }
        #expect(try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM payment") } == 1)
        let instance = try await lights.instance("l1")
        #expect(instance?.state == .green && instance?.context == 1 && instance?.version == 2)
        try pool.close()
    }
}
