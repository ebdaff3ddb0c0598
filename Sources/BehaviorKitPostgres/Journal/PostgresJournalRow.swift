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

    func value<T: PostgresDecodable>(_ index: Int, as type: T.Type = T.self) throws(PostgresStoreError) -> T {
        guard index < cells.count else { throw malformed("the statement returned \(cells.count) columns") }
        do {
            return try cells[index].decode(T.self)
        } catch {
            throw malformed("column \(index) does not hold a \(T.self): \(String(reflecting: error).prefix(200))")
        }
    }

    func bytes(_ index: Int) throws(PostgresStoreError) -> [UInt8]? {
        try value(index, as: ByteBuffer?.self).map { Array($0.readableBytesView) }
    }

    /// The record in the columns from `first` on (``PostgresJournalColumn``), or `nil` when they
    /// are NULL (an outer join that found nothing).
    func record(at first: Int) throws(PostgresStoreError) -> CommandJournalRecord? {
        func at(_ column: PostgresJournalColumn) -> Int { first + column.offset }
        guard let sequence = try value(at(.sequence), as: Int64?.self) else { return nil }
        let statusText = try value(at(.status), as: String.self)
        guard let status = CommandJournalStatus(rawValue: statusText) else {
            throw malformed("record \(sequence) has the unknown status '\(statusText)'")
        }
        let entry = CommandJournalEntry(
            idempotencyKey: try value(at(.key)), kind: try value(at(.kind)), payload: try bytes(at(.payload)) ?? [],
            parentKey: try value(at(.parentKey)))
        return CommandJournalRecord(
            sequence: sequence, entry: entry, status: status, failureReason: try value(at(.failureReason)),
            output: try bytes(at(.output)), owner: try value(at(.owner)),
            leaseExpiresAt: try value(at(.leaseExpiresAt), as: Int64?.self).map(Date.init(journalMilliseconds:)),
            queue: try value(at(.queue)), attempts: Int(clamping: try value(at(.attempts), as: Int64.self)),
            createdAt: Date(journalMilliseconds: try value(at(.createdAt))),
            updatedAt: Date(journalMilliseconds: try value(at(.updatedAt))),
            priority: Int(try value(at(.priority), as: Int64.self)))
    }

    private func malformed(_ reason: String) -> PostgresStoreError {
        names.error(.malformedRecord, reason)
    }
}
