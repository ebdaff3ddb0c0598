/// A command as the caller writes it down: what to run, under which idempotency key. Plain
/// `Codable` data, so that a journal can store it in memory, SQLite or PostgreSQL.
///
/// ```swift
/// let entry = CommandJournalEntry(
///     idempotencyKey: "order-42/charge", kind: "bank.charge", payload: Array(json.utf8))
/// let record = try await journal.enqueue(entry, queue: "payments", after: .zero)
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
