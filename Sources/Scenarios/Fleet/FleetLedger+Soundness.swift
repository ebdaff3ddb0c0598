import BehaviorKitSQLite
import Commands

extension FleetLedger.Contents {
    /// What both fleets on a journal and this ledger check last: the anomalies the ledger
    /// logged, no two attempts acting on one step at once (``Fleet/overlaps(_:)``), and sound
    /// files: the ledger's, and the journal's when it is a SQLite one.
    func soundnessViolations(journal: any CommandJournal) async throws -> [String] {
        var violations = anomalies + Fleet.overlaps(executions)
        if integrity != ["ok"] { violations.append("ledger integrity: \(integrity.prefix(3))") }
        if let sqlite = journal as? SQLiteCommandJournal {
            let journalIntegrity = try await sqlite.integrityCheck()
            if journalIntegrity != ["ok"] { violations.append("journal integrity: \(journalIntegrity.prefix(3))") }
        }
        return violations
    }
}
