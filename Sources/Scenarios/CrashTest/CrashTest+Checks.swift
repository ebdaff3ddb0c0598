import BehaviorKitSQLite
import BehaviorKitSync
import Commands
import Foundation

extension CrashTest {
    /// Every acknowledged key is in the journal exactly once with its acknowledged status and
    /// its effect in the ledger; nothing is pending; every transaction is done with all its
    /// effects or compensated with none; SQLite's integrity check passes.
    static func check(
        _ directory: String, acknowledged: [String: String], report: CommandRecoveryReport
    ) async throws -> [String] {
        var violations: [String] = []
        let journal = try SQLiteCommandJournal(path: CrashTestWork.journalPath(directory))
        let ledger = try CrashTestWork.Ledger(path: CrashTestWork.ledgerPath(directory))
        let records = try await journal.allRecords()
        let byKey = Dictionary(grouping: records, by: \.entry.idempotencyKey)
        let effects = Set(try await ledger.keys)
        if !report.unreadable.isEmpty || !report.failed.isEmpty { violations.append("recovery: \(report)") }
        for (key, status) in acknowledged.sorted(by: { $0.key < $1.key }) {
            let found = byKey[key] ?? []
            if found.count != 1 || "\(found[0].status)" != status {
                violations.append("acknowledged \(key) (\(status)) is in the journal as \(found.map(\.status))")
            }
            if status == "done" && found.first?.entry.kind == "crash.effect" && !effects.contains(key) {
                violations.append("acknowledged \(key) has no effect in the ledger")
            }
        }
        let pending = records.filter { $0.status == .pending }.map(\.entry.idempotencyKey)
        if !pending.isEmpty { violations.append("left pending after recovery: \(pending.prefix(5))") }
        for transaction in records where transaction.entry.kind == DurableTransaction.journalKind {
            let key = transaction.entry.idempotencyKey
            let steps = (byKey.keys.filter { $0.hasPrefix(key + "/") }).compactMap { byKey[$0]?.first }
            let applied = (0..<3).filter { effects.contains("\(key)/e\($0)") }
            switch transaction.status {
            case .done:
                if steps.count != 3 || steps.contains(where: { $0.status != .done }) || applied.count != 3 {
                    violations.append("transaction \(key) is done but its steps are \(steps.map(\.status))")
                }
            case .compensated:
                if steps.contains(where: { $0.status == .done || $0.status == .pending }) || !applied.isEmpty {
                    violations.append("transaction \(key) is compensated but steps \(applied) took effect")
                }
            default:
                violations.append("transaction \(key) is left \(transaction.status)")
            }
        }
        let integrity = try await journal.integrityCheck()
        if integrity != ["ok"] { violations.append("integrity check: \(integrity.prefix(3))") }
        return violations
    }
}
