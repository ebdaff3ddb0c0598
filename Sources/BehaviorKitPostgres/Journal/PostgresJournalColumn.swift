import Commands

/// The columns of a journal's table, in the order every statement reads them: the one place
/// the record's layout is written. The table's definition, the checks of an existing table,
/// the reads' `SELECT` lists, the batch function's result columns and the decoding of a row
/// (``PostgresJournalRow/record(at:)``) are all made from it.
enum PostgresJournalColumn: String, CaseIterable, Sendable {
    case sequence
    case key
    case kind
    case payload
    case parentKey = "parent_key"
    case status
    case failureReason = "failure_reason"
    case output
    case owner
    case leaseExpiresAt = "lease_expires_at"
    case queue
    case attempts
    case createdAt = "created_at"
    case updatedAt = "updated_at"
    /// Added by the layout of priorities (``PostgresJournalSchema/addedColumns``): last, so that
    /// the columns before keep their positions.
    case priority

    /// The column's name in SQL.
    var name: String { rawValue }

    /// Its type, as `format_type` spells it.
    var type: String {
        switch self {
        case .sequence, .leaseExpiresAt, .attempts, .createdAt, .updatedAt, .priority: "bigint"
        case .key, .kind, .parentKey, .status, .failureReason, .owner, .queue: "text"
        case .payload, .output: "bytea"
        }
    }

    /// Its definition in `CREATE TABLE`. Times are milliseconds since 1970; a pending root's
    /// `lease_expires_at` is when its owner's lease ends (or, unowned on a queue, when it falls due).
    /// Keys are compared byte by byte (`COLLATE "C"`, whatever the database's collation), so that
    /// one index, unique, serves lookups by key and listings by prefix (the table's unique
    /// constraint, ``PostgresJournalSchema/createTable(_:)``); a parent's key too, so that a
    /// record's key finds its children through the index on `parent_key`.
    var definition: String {
        switch self {
        case .sequence: "sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
        case .key: "key \(type) \(Self.keyCollation) NOT NULL"
        case .parentKey: "parent_key \(type) \(Self.keyCollation)"
        case .kind, .payload, .status, .createdAt, .updatedAt: "\(name) \(type) NOT NULL"
        case .attempts: "attempts bigint NOT NULL DEFAULT 0"
        case .priority: "priority bigint NOT NULL DEFAULT \(CommandQueue.defaultPriority)"
        case .failureReason, .output, .owner, .leaseExpiresAt, .queue: "\(name) \(type)"
        }
    }

    /// The collation of every key column of a new journal's tables: byte order.
    static let keyCollation = "COLLATE \"C\""

    /// Its position in a row that holds a record from `first` on.
    var offset: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// The columns' names, comma-separated, each prefixed with `qualifier` (`"r."`, say).
    static func list(_ qualifier: String = "") -> String {
        allCases.map { qualifier + $0.name }.joined(separator: ", ")
    }
}
