import BehaviorKitSQLite
import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// SQLite has one writer: a write held by a paused process stalls every other worker's renewal.
/// Such a stall must not cost them their leases.
struct SQLiteJournalStallTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func aStalledWriteGivesItsTimeBackToTheLeases() async throws {
        let clock = StallingClock()
        let journal = try SQLiteCommandJournal(path: folder.path("stall.journal"), clock: clock)
        let held = JournalLease(owner: "held", duration: .seconds(1))
        _ = try await journal.begin(CommandJournalEntry(idempotencyKey: "k", kind: "test"), lease: held)
        clock.stallNextWrite(by: .seconds(2))  // a write holds the lock for 2 s: nobody could renew
        _ = try await journal.enqueue(
            CommandJournalEntry(idempotencyKey: "other", kind: "test"), queue: "q", after: .zero)
        clock.advance(by: .milliseconds(10))
        let rival = JournalLease(owner: "rival", duration: .seconds(1))
        let claim = try await journal.claim(10, from: nil, concurrency: nil, lease: rival)
        #expect(claim.records.isEmpty, "a lease lapsed during another's stall was taken: \(claim.records.map(\.id))")
        clock.advance(by: .seconds(1))
        let later = try await journal.claim(10, from: nil, concurrency: nil, lease: rival)
        #expect(later.records.map(\.id) == ["k"], "the lease, given its 2 s back, still ends")
    }

    @Test func shortWritesGiveNothingBack() async throws {
        let clock = StallingClock()
        let journal = try SQLiteCommandJournal(path: folder.path("short.journal"), clock: clock)
        let held = JournalLease(owner: "held", duration: .seconds(1))
        _ = try await journal.begin(CommandJournalEntry(idempotencyKey: "k", kind: "test"), lease: held)
        clock.stallNextWrite(by: .milliseconds(200))
        _ = try await journal.enqueue(
            CommandJournalEntry(idempotencyKey: "other", kind: "test"), queue: "q", after: .zero)
        clock.advance(by: .milliseconds(900))
        let claim = try await journal.claim(
            10, from: nil, concurrency: nil, lease: JournalLease(owner: "rival", duration: .seconds(1)))
        #expect(claim.records.map(\.id) == ["k"], "a 200 ms write kept a lapsed lease alive")
    }
}

/// A wall clock the test moves, which can make the next write appear to hold the lock for a
/// while: the first reading inside it is now, the next one `stall` later.
final class StallingClock: WallClock {
    private struct State {
        var now = Date(timeIntervalSince1970: 1_767_225_600)
        var stall: Duration?
        var stalling = false
    }

    private let state = LockedValue(State())

    var currentDate: Date {
        state.withLock { state in
            let now = state.now
            if state.stalling, let stall = state.stall {
                state.now = state.now.addingTimeInterval(
                    Double(stall.components.seconds) + Double(stall.components.attoseconds) / 1e18)
                state.stall = nil
                state.stalling = false
                return state.now
            }
            if state.stall != nil { state.stalling = true }
            return now
        }
    }

    func stallNextWrite(by duration: Duration) { state.withLock { $0.stall = duration } }

    func advance(by duration: Duration) {
        state.withLock {
            $0.now = $0.now.addingTimeInterval(
                Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
        }
    }
}
