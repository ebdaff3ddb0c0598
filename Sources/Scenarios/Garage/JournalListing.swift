import BehaviorKitSQLite
import Commands

#if PostgreSQL
import BehaviorKitPostgres
#endif

/// `behaviorkit journal PATH|URL`: the records of a command journal, one a line, with their status.
public enum JournalListing {
    /// Prints every record of the journal at `path` ("#3 done  run1/3  garage.log"), a failed
    /// record's reason, and a summary line. A file is only read: its bytes do not change. A
    /// `postgres://` URL opens the journal (which creates its table when missing) and reads it
    /// with one query.
    ///
    /// - Throws: the journal's error naming the file, or the server, when it cannot be read.
    public static func run(path: String, console: Console) async throws {
        let records: [CommandJournalRecord]
        if JournalLocation.isServerURL(path) {
            #if PostgreSQL
            let journal = try await PostgresCommandJournal(url: path)
            do {
                records = try await journal.allRecords()
                await journal.close()
            } catch {
                await journal.close()
                throw error
            }
            #else
            throw PostgreSQLTraitMissing()
            #endif
        } else {
            records = try SQLiteCommandJournalReader(path: path).allRecords()
        }
        let keyWidth = records.map(\.entry.idempotencyKey.count).max() ?? 0
        let numberWidth = "#\(records.last?.sequence ?? 0)".count
        for record in records {
            let status = pad("\(record.status)", 11)
            let key = pad(record.entry.idempotencyKey, keyWidth)
            let reason = record.failureReason.map { " (\($0))" } ?? ""
            console.print("\(pad("#\(record.sequence)", numberWidth)) \(status) \(key)  \(record.entry.kind)\(reason)")
        }
        console.print(GarageJournal.summary(records))
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
