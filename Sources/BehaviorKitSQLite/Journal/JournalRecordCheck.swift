import GRDB

/// The records opening refuses because reading them would fail: an unknown status, or a value
/// of a type no journal writes (a damaged or hand-edited file). Found before anything is
/// written, so that a run that cannot read the journal leaves it as it was.
enum JournalRecordCheck {
    /// An SQL condition true for a record every read can decode: a known status, text where
    /// text is read, integers where integers are, and no number where bytes are.
    static func wellFormed(layout2: Bool) -> String {
        func text(_ column: String) -> String { "typeof(\(column)) = 'text'" }
        func optionalText(_ column: String) -> String { "(\(column) IS NULL OR typeof(\(column)) = 'text')" }
        func integer(_ column: String) -> String { "typeof(\(column)) = 'integer'" }
        func bytes(_ column: String) -> String { "typeof(\(column)) NOT IN ('integer', 'real')" }
        var conditions = [
            "status IN ('pending', 'done', 'failed', 'compensated')", text("status"), text("key"), text("kind"),
            bytes("payload"), optionalText("parentKey"), optionalText("failureReason"),
        ]
        if layout2 {
            conditions += [
                bytes("output"), optionalText("owner"), optionalText("queue"),
                "(leaseExpiresAt IS NULL OR \(integer("leaseExpiresAt")))", integer("attempts"), integer("createdAt"),
                integer("updatedAt"),
            ]
        }
        return "(" + conditions.joined(separator: " AND ") + ")"
    }

    /// What is wrong with the first record that is not well formed, or `nil` when every one is.
    static func firstMalformed(_ db: Database, layout2: Bool) throws -> String? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT sequence, CASE WHEN typeof(status) = 'text' THEN status END AS status,
                        typeof(status) = 'text' AND status IN ('pending', 'done', 'failed', 'compensated') AS known
                    FROM commandRecord NOT INDEXED WHERE NOT \(wellFormed(layout2: layout2))
                    ORDER BY sequence LIMIT 1
                    """)
        else { return nil }
        let sequence: Int64 = row["sequence"]
        if let status = row["status"] as String?, !(row["known"] as Bool) {
            return "record \(sequence) has the unknown status '\(status)'"
        }
        return "record \(sequence) holds a value of a type no journal writes"
    }
}
