/// The one rule every store applies to the keys and ids it keeps (idempotency keys, queue
/// names, durable machines' names, instance keys and event ids): a string is kept exactly,
/// byte for byte, or refused with an ``InvalidKeyError`` before anything is written.
///
/// Two kinds of strings are refused, the same in memory, on SQLite and on PostgreSQL:
/// - one holding a NUL character (SQLite's text ends at it, PostgreSQL's refuses it);
/// - one not in Unicode Normalization Form C: Swift's `==` finds "café" precomposed and
///   decomposed equal, a database's index does not, so a store in memory and one on disk
///   would disagree on whether they are one key.
///
/// An ASCII string without NUL (every UUID, every key made of digits and letters) passes at the
/// cost of one pass over its bytes.
public enum StoredKey {
    /// Throws when `key` cannot be kept exactly; `role` names it in the error.
    public static func check(_ key: String, _ role: String) throws(InvalidKeyError) {
        if let problem = problem(in: key) { throw InvalidKeyError(role: role, key: key, problem: problem) }
    }

    /// `true` when a store can keep `key` exactly: a read by a key that is not can find nothing.
    public static func isStorable(_ key: String) -> Bool { problem(in: key) == nil }

    /// What keeps `key` from being stored exactly, or `nil`.
    static func problem(in key: String) -> InvalidKeyError.Problem? {
        var isASCII = true
        var offset = 0
        for byte in key.utf8 {
            if byte == 0 { return .nul(utf8Offset: offset) }
            if byte >= 0x80 { isASCII = false }
            offset += 1
        }
        if isASCII { return nil }
        // Compared with its NFC form code unit by code unit (the standard library's).
        var utf8 = key.utf8.makeIterator()
        var same = true
        key._withNFCCodeUnits { unit in
            if same, utf8.next() != unit { same = false }
        }
        return same && utf8.next() == nil ? nil : .notNFC
    }
}
