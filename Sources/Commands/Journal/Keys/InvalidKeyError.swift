/// A key or an id a store cannot keep exactly, refused before anything is written, the same on
/// every store (in memory, SQLite, PostgreSQL): see ``StoredKey``.
///
/// ```swift
/// do { try await journal.enqueue(entry, queue: "mail", after: .zero) } catch let error as InvalidKeyError {
///     print(error)  // the idempotency key "a\0b" holds a NUL character (at UTF-8 offset 1) …
/// }
/// ```
public struct InvalidKeyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the key.
    public enum Problem: Hashable, Sendable {
        /// It holds a NUL character (U+0000) at this UTF-8 offset: SQLite's text cuts it there
        /// and PostgreSQL's text refuses it, so no store could keep it exactly.
        case nul(utf8Offset: Int)
        /// It is not in Unicode Normalization Form C: Swift compares strings by canonical
        /// equivalence, the databases by bytes, so "café" written decomposed would be one key
        /// in memory and two on disk. Normalize it first (Foundation's
        /// `precomposedStringWithCanonicalMapping`).
        case notNFC
    }

    /// What the string names: "idempotency key", "instance key", "event id", …
    public var role: String
    /// The key as given.
    public var key: String
    /// What is wrong with it.
    public var problem: Problem

    /// Creates an error.
    public init(role: String, key: String, problem: Problem) {
        self.role = role
        self.key = key
        self.problem = problem
    }

    /// One line naming the key (escaped) and the problem.
    public var description: String {
        switch problem {
        case .nul(let offset):
            "the \(role) \(key.debugDescription) holds a NUL character (at UTF-8 offset \(offset)): "
                + "no store keeps one exactly, so keys and ids may not contain it"
        case .notNFC:
            "the \(role) \(key.debugDescription) is not in Unicode Normalization Form C: stores compare keys by "
                + "their bytes, so normalize it first (precomposedStringWithCanonicalMapping)"
        }
    }
}
