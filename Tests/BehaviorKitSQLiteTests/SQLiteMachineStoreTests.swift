import BehaviorKitSQLite
import BehaviorKitTesting
import DurableMachines
import Foundation
import GRDB
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
