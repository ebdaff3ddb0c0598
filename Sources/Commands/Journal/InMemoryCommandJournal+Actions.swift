#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The in-memory journal's operator actions: a cancellation and a retry, as writes of the state.
extension InMemoryCommandJournal.State {
    mutating func cancel(_ key: String, reason: String, now: Date) throws(CommandJournalError) -> CommandJournalRecord {
        guard let index = indexByKey[key] else { throw .unknownKey(key) }
        let record = records[index]
        let hasChildren = records.contains { $0.entry.parentKey == key }
        let isMarked = indexByKey[CommandJournalCancellation.key(of: key)] != nil
        let compensates = indexByKey[CommandJournalCancellation.compensationsKey(of: key)] != nil
        let writes = try CommandJournalCancellation.writes(
            record, hasChildren: hasChildren, isMarked: isMarked, compensates: compensates,
            reason: CommandJournalCancellation.reason(reason), now: now)
        for write in writes {
            switch write {
            case .logAttempt(let attempt):
                log(attempt, key)
            case .settleFailed(let text):
                records[index].owner = nil
                records[index].status = .failed
                records[index].failureReason = text
                records[index].leaseExpiresAt = nil
                records[index].updatedAt = now
            case .takeFromWorker:
                if records[index].owner != nil { records[index].attempts += 1 }
                records[index].owner = nil
                records[index].leaseExpiresAt = now
                records[index].updatedAt = now
            case .mark(let text):
                _ = insert(CommandJournalCancellation.entry(of: key), now: now, owner: nil, until: nil, queue: nil)
                if let mark = indexByKey[CommandJournalCancellation.key(of: key)] {
                    records[mark].settle(.failed(reason: text), now: now)
                }
            }
        }
        return records[index]
    }

    mutating func retry(_ key: String, now: Date) throws(CommandJournalError) -> CommandJournalRecord {
        guard let index = indexByKey[key] else { throw .unknownKey(key) }
        if let ended = try CommandJournalAttempt.endedBeforeRetry(records[index]),
            attemptLog[key]?.contains(where: { $0.number == ended.number }) != true
        {
            log(ended, key)
        }
        records[index].status = .pending
        records[index].failureReason = nil
        records[index].owner = nil
        records[index].leaseExpiresAt = now
        records[index].updatedAt = now
        let retried = records[index]
        for child in records where child.entry.parentKey == key { attemptLog[child.id] = nil }
        records.removeAll { $0.entry.parentKey == key }
        reindex()
        return retried
    }

    /// Logs `attempt` of `key`, replacing what was logged for its number.
    mutating func log(_ attempt: CommandJournalAttempt, _ key: String) {
        attemptLog[key, default: []].removeAll { $0.number == attempt.number }
        attemptLog[key, default: []].append(attempt)
        attemptLog[key]?.sort { $0.number < $1.number }
    }
}
