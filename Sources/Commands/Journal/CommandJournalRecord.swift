/// A command as a journal keeps it: what to run, under which idempotency key, and how far it
/// got. Plain `Codable` data, so that a journal can store it in memory, SQLite or PostgreSQL.
///
/// ```swift
/// let entry = CommandJournalEntry(
///     idempotencyKey: "order-42/charge", kind: "bank.charge", payload: Array(json.utf8))
/// let record = try await journal.append(entry)  // status .pending, sequence assigned
/// ```
public struct CommandJournalEntry: Codable, Sendable, Hashable {
    /// The key that makes running it twice safe: a journal keeps one record per key.
    public var idempotencyKey: String
    /// Which kind of command this is: the key a registry decodes the payload with.
    public var kind: String
    /// The command's arguments, encoded (JSON, say).
    public var payload: [UInt8]
    /// The key of the record this one belongs to (a durable transaction's step names its
    /// transaction), or `nil` for a command of its own.
    public var parentKey: String?

    /// Creates an entry.
    public init(idempotencyKey: String, kind: String, payload: [UInt8] = [], parentKey: String? = nil) {
        self.idempotencyKey = idempotencyKey
        self.kind = kind
        self.payload = payload
        self.parentKey = parentKey
    }
}

/// How far a journaled command got.
public enum CommandJournalStatus: String, Codable, Sendable, Hashable, CaseIterable {
    /// Appended, not yet marked: it may have run or not (a crash leaves it so).
    case pending
    /// It ran and finished.
    case done
    /// It ran and failed (the record says why).
    case failed
    /// It ran and was undone: a step of a transaction that rolled back, or the transaction.
    case compensated
}

/// A journaled command: the entry, its place in the journal, and its status.
public struct CommandJournalRecord: Codable, Sendable, Hashable, Identifiable {
    /// The order of appending, from 1; unique within a journal.
    public var sequence: Int64
    /// What was appended.
    public var entry: CommandJournalEntry
    /// How far it got.
    public var status: CommandJournalStatus
    /// Why it failed, when it did.
    public var failureReason: String?

    /// Creates a record.
    public init(sequence: Int64, entry: CommandJournalEntry, status: CommandJournalStatus, failureReason: String? = nil)
    {
        self.sequence = sequence
        self.entry = entry
        self.status = status
        self.failureReason = failureReason
    }

    /// The idempotency key, which identifies the record.
    public var id: String { entry.idempotencyKey }
}

/// Why a journal refused a request.
public enum CommandJournalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No record has this idempotency key.
    case unknownKey(String)
    /// The key is taken by a record with a different kind or payload.
    case conflictingEntry(key: String)

    /// A readable account naming the key.
    public var description: String {
        switch self {
        case .unknownKey(let key): "no journal record has the idempotency key '\(key)'"
        case .conflictingEntry(let key):
            "the idempotency key '\(key)' is already used by a different command"
        }
    }
}
