#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The defaults of the schedule calls, for a journal that keeps no schedules.
extension CommandJournal {
    /// Refuses: this journal keeps no schedules.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)``.
    public func saveSchedule(_ schedule: QueueSchedule) async throws -> CommandJournalSchedule {
        throw CommandJournalError.unsupported(operation: "saving a schedule")
    }

    /// Refuses: this journal keeps no schedules.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)``.
    public func removeSchedule(named name: String) async throws -> Bool {
        throw CommandJournalError.unsupported(operation: "removing a schedule")
    }

    /// Refuses: this journal keeps no schedules.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)``.
    public func schedules() async throws -> [CommandJournalSchedule] {
        throw CommandJournalError.unsupported(operation: "listing the schedules")
    }

    /// Refuses: this journal keeps no schedules.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)``.
    public func advanceSchedule(
        named name: String, revision: Int64, from lastTick: Date?, to tick: Date
    ) async throws -> Bool {
        throw CommandJournalError.unsupported(operation: "advancing a schedule")
    }
}
