import BehaviorKitSQLite
import Commands
import Foundation
import Scenarios
import Testing

struct GarageJournalTests {
    @Test func theGarageRecoversWhatACrashLeftThenRunsAsUsual() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("garage-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let vehicle = Garage.Vehicle(id: 7, name: "crashed vehicle")
        do {
            let journal = try SQLiteCommandJournal(path: path)
            _ = try await journal.append(
                CommandRegistry.entry(kind: "garage.saveToDB", arguments: vehicle, key: "run0/1"))
            _ = try await journal.append(
                CommandJournalEntry(idempotencyKey: "run0/2", kind: "garage.fax", payload: [1]))
        }
        let (console, recording) = Console.recording()
        try await GarageScenario.run(failAPI: false, journalPath: path, console: console)
        #expect(
            Array(recording.lines.prefix(4)) == [
                "Saved the vehicle 'crashed vehicle' to DB!",
                "Journal: recovery: 1 replayed, 0 compensated, 0 completed, 0 failed, 0 left pending, 1 unreadable",
                "  record 'run0/2': the command type 'garage.fax' is not registered; the record is kept",
                "Sending the vehicle 'first vehicle' to backend!",
            ])
        #expect(recording.lines.last == "Journal: 11 records: 1 pending, 10 done")
    }
}
