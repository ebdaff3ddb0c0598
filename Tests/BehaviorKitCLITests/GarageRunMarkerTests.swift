import BehaviorKitSQLite
import Commands
import Foundation
import Testing

/// A `garage --journal` run killed between writing its `run<N>` marker and settling it leaves
/// the marker pending under a lease that ends: the next run settles it, and no later run
/// reports it as unreadable.
struct GarageRunMarkerTests {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("GarageRunMarkerTests-\(UUID().uuidString).sqlite").path

    /// The journal as a run killed right after writing its marker leaves it: `run1` pending,
    /// held by the dead run, whose lease has ended.
    func journalOfARunKilledAfterItsMarker() async throws {
        let journal = try SQLiteCommandJournal(path: path)
        let marker = CommandJournalEntry(idempotencyKey: "run1", kind: "garage.run")
        let begun = try await journal.begin(marker, lease: JournalLease(owner: "garage-killed", duration: .zero))
        guard case .started = begun else { throw CocoaError(.featureUnsupported) }
        try await journal.close()
    }

    @Test func theNextRunSettlesAKilledRunsMarkerAndNoRunReportsItUnreadable() async throws {
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try await journalOfARunKilledAfterItsMarker()
        for run in 1...2 {
            let result = try CLIRunner.run(["garage", "--journal", path], timeout: .seconds(60))
            #expect(result.exitCode == 0, "run \(run): \(result.standardError)")
            #expect(result.standardOutput.hasPrefix("Journal: nothing to recover\n"), "run \(run)")
            #expect(!result.standardOutput.contains("unreadable"), "run \(run): \(result.standardOutput)")
        }
        let records = try SQLiteCommandJournalReader(path: path).allRecords()
        #expect(records.first { $0.entry.idempotencyKey == "run1" }?.status == .done)
        #expect(records.allSatisfy { $0.status != .pending })
        // The killed run's number is not reused: the two runs took 2 and 3.
        #expect(
            records.filter { $0.entry.kind == "garage.run" }.map(\.entry.idempotencyKey) == ["run1", "run2", "run3"])
    }
}
