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
            // A run that stopped long ago: its lease has expired.
            let journal = try SQLiteCommandJournal(path: path)
            let stopped = JournalLease(owner: "stopped", duration: .zero)
            _ = try await journal.begin(
                CommandRegistry.entry(kind: "garage.saveToDB", arguments: vehicle, key: "run0/1"), lease: stopped)
            _ = try await journal.begin(
                CommandJournalEntry(idempotencyKey: "run0/2", kind: "garage.fax", payload: [1]), lease: stopped)
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
        #expect(recording.lines.last == "Journal: 12 records: 1 pending, 11 done")
    }
}
