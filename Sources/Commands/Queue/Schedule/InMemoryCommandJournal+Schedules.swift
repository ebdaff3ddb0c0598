import BehaviorKitSync

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The schedules of an in-memory journal, kept under its lock.
extension InMemoryCommandJournal {
    /// Adds or replaces `schedule`; see ``CommandJournalManagement/saveSchedule(_:)``.
    public func saveSchedule(_ schedule: QueueSchedule) async throws -> CommandJournalSchedule {
        // Refuses what a durable store refuses: a name or queue it cannot keep exactly.
        _ = try CommandJournalSchedule.encode(schedule)
        let now = self.now
        return state.withLock { state in
            let revision = (state.schedules[schedule.name]?.revision ?? 0) + 1
            let kept = CommandJournalSchedule(schedule: schedule, revision: revision, savedAt: now, lastTick: nil)
            state.schedules[schedule.name] = kept
            return kept
        }
    }

    /// Removes the schedule `name`; see ``CommandJournalManagement/removeSchedule(named:)``.
    public func removeSchedule(named name: String) async throws -> Bool {
        state.withLock { $0.schedules.removeValue(forKey: name) != nil }
    }

    /// The schedules, by name; see ``CommandJournalManagement/schedules()``.
    public func schedules() async throws -> [CommandJournalSchedule] {
        state.withLock { $0.schedules.values.sorted { $0.schedule.name < $1.schedule.name } }
    }

    /// Moves the last tick of `name`, compare and set; see
    /// ``CommandJournalManagement/advanceSchedule(named:revision:from:to:)``.
    public func advanceSchedule(
        named name: String, revision: Int64, from lastTick: Date?, to tick: Date
    ) async throws -> Bool {
        state.withLock { state in
            guard var kept = state.schedules[name], kept.revision == revision, kept.lastTick == lastTick else {
                return false
            }
            kept.lastTick = Date(journalMilliseconds: tick.journalMilliseconds)
            state.schedules[name] = kept
            return true
        }
    }
}
