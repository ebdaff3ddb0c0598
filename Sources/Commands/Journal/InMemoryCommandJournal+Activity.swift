import BehaviorKitSync

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension InMemoryCommandJournal {
    /// See ``CommandJournalManagement/activity(since:)``.
    public func activity(since: Date) async throws -> [QueueActivity] {
        state.withLock { state in
            var counts: [QueueActivity] = []
            for record in state.records where record.entry.parentKey == nil && record.updatedAt >= since {
                guard let queue = record.queue, record.status != .pending else { continue }
                let pickup = state.pickups[record.id]
                counts.append(
                    QueueActivity(
                        queue: queue, minute: QueueActivity.minute(of: record.updatedAt),
                        done: record.status == .done ? 1 : 0, failed: record.status == .done ? 0 : 1,
                        pickups: pickup == nil ? 0 : 1, pickupMilliseconds: pickup ?? 0,
                        longestPickupMilliseconds: pickup ?? 0))
            }
            for (key, attempts) in state.attemptLog {
                guard let index = state.indexByKey[key] else { continue }
                let record = state.records[index]
                let root = record.entry.parentKey.flatMap { state.indexByKey[$0] }.map { state.records[$0] } ?? record
                guard let queue = root.queue else { continue }
                for attempt in attempts where attempt.error != nil {
                    guard let ended = attempt.endedAt, ended >= since else { continue }
                    counts.append(QueueActivity(queue: queue, minute: QueueActivity.minute(of: ended), retried: 1))
                }
            }
            return QueueActivity.gathered(counts)
        }
    }
}
