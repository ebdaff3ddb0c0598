import Foundation
import GRDB

/// The SQL of ``DiskCache``, apart from its Swift API.
enum DiskCacheSchema {
    /// Creates what is missing: the tables (one row per entry, with its size, last access and
    /// write time, and a one-row table of totals kept by triggers, so that the size limit is
    /// checked without scanning), and the `written` column that files made before expiry lack.
    /// Idempotent; run in an immediate transaction.
    static func prepare(_ db: Database) throws {
        if try !db.tableExists("cacheEntry") {
            try db.execute(
                sql: """
                    CREATE TABLE cacheEntry (
                        key BLOB PRIMARY KEY NOT NULL,
                        value BLOB NOT NULL,
                        size INTEGER NOT NULL,
                        accessed INTEGER NOT NULL,
                        written INTEGER NOT NULL DEFAULT 0
                    ) WITHOUT ROWID;
                    CREATE INDEX cacheEntryAccessed ON cacheEntry(accessed);
                    CREATE TABLE cacheTotals (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        count INTEGER NOT NULL,
                        size INTEGER NOT NULL
                    );
                    INSERT INTO cacheTotals (id, count, size) VALUES (1, 0, 0);
                    CREATE TRIGGER cacheEntryInserted AFTER INSERT ON cacheEntry BEGIN
                        UPDATE cacheTotals SET count = count + 1, size = size + NEW.size;
                    END;
                    CREATE TRIGGER cacheEntryDeleted AFTER DELETE ON cacheEntry BEGIN
                        UPDATE cacheTotals SET count = count - 1, size = size - OLD.size;
                    END;
                    CREATE TRIGGER cacheEntryResized AFTER UPDATE OF size ON cacheEntry BEGIN
                        UPDATE cacheTotals SET size = size - OLD.size + NEW.size;
                    END;
                    """)
        }
        // Entries of a file made before expiry existed count as written long ago.
        if try !db.columns(in: "cacheEntry").contains(where: { $0.name == "written" }) {
            try db.execute(sql: "ALTER TABLE cacheEntry ADD COLUMN written INTEGER NOT NULL DEFAULT 0")
        }
    }

    /// The next access stamp: later than every entry's.
    static let nextAccess = "(SELECT IFNULL(MAX(accessed), 0) + 1 FROM cacheEntry)"

    /// Deletes least recently used entries until the totals fit the limits.
    static func evict(_ db: Database, sizeLimit: Int, countLimit: Int?) throws {
        guard let totals = try Row.fetchOne(db, sql: "SELECT count, size FROM cacheTotals") else { return }
        var count: Int = totals["count"]
        var size: Int = totals["size"]
        let maximumCount = countLimit ?? .max
        guard count > maximumCount || size > sizeLimit else { return }
        var victims: [Data] = []
        do {
            let oldest = try Row.fetchCursor(db, sql: "SELECT key, size FROM cacheEntry ORDER BY accessed")
            while count > maximumCount || size > sizeLimit, let row = try oldest.next() {
                victims.append(row["key"])
                size -= row["size"] as Int
                count -= 1
            }
        }
        for key in victims {
            try db.execute(sql: "DELETE FROM cacheEntry WHERE key = ?", arguments: [key])
        }
    }
}
