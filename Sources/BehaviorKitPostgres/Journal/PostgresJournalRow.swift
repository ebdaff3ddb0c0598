import Commands
import Foundation
import PostgresNIO

/// Reads the values of one row of a journal statement, column by column.
struct PostgresJournalRow {
    let cells: PostgresRandomAccessRow
    let names: PostgresJournalNames

    init(_ row: PostgresRow, _ names: PostgresJournalNames) {
        self.cells = row.makeRandomAccess()
        self.names = names
    }

    func value<T: PostgresDecodable>(_ index: Int, as type: T.Type = T.self) throws(PostgresCommandJournalError) -> T {
        guard index < cells.count else { throw malformed("the statement returned \(cells.count) columns") }
        do {
            return try cells[index].decode(T.self)
        } catch {
            throw malformed("column \(index) does not hold a \(T.self): \(String(reflecting: error).prefix(200))")
        }
    }

    func bytes(_ index: Int) throws(PostgresCommandJournalError) -> [UInt8]? {
        try value(index, as: ByteBuffer?.self).map { Array($0.readableBytesView) }
    }

    /// The record in the 14 columns from `first` on (``PostgresJournalSQL/columns``), or `nil`
    /// when they are NULL (an outer join that found nothing).
    func record(at first: Int) throws(PostgresCommandJournalError) -> CommandJournalRecord? {
        guard let sequence = try value(first, as: Int64?.self) else { return nil }
        let statusText = try value(first + 5, as: String.self)
        guard let status = CommandJournalStatus(rawValue: statusText) else {
            throw malformed("record \(sequence) has the unknown status '\(statusText)'")
        }
        let entry = CommandJournalEntry(
            idempotencyKey: try value(first + 1), kind: try value(first + 2), payload: try bytes(first + 3) ?? [],
            parentKey: try value(first + 4))
        return CommandJournalRecord(
            sequence: sequence, entry: entry, status: status, failureReason: try value(first + 6),
            output: try bytes(first + 7), owner: try value(first + 8),
            leaseExpiresAt: try value(first + 9, as: Int64?.self).map(Date.init(journalMilliseconds:)),
            queue: try value(first + 10), attempts: Int(clamping: try value(first + 11, as: Int64.self)),
            createdAt: Date(journalMilliseconds: try value(first + 12)),
            updatedAt: Date(journalMilliseconds: try value(first + 13)))
    }

    private func malformed(_ reason: String) -> PostgresCommandJournalError {
        names.error(.malformedRecord, reason)
    }
}
