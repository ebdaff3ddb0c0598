import Foundation
import GRDB

/// What a journal file is, found without writing to it: its header read as bytes, then the
/// file as its WAL would make it, through a read-only connection that never checkpoints.
struct JournalFileInspection {
    /// The layouts a journal file can have.
    enum Layout: Equatable {
        /// No file: it will be created.
        case absent
        /// An empty file, or a database with no tables yet (another process is creating it).
        case empty
        /// A journal from before owners and leases: upgraded when opened for writing.
        case layout1
        /// A journal of the present layout.
        case layout2
        /// An application's own database that holds the journal's table beside its own
        /// (``SQLiteCommandJournal/registerMigrations(in:)``): it cannot carry the journal's
        /// application id, so its schema says what it is. Read only: the application writes it
        /// through ``SQLiteCommandJournal/init(database:path:clock:logger:)``.
        case applicationDatabase
    }

    let path: String
    let layout: Layout

    var walPath: String { path + "-wal" }

    /// Inspects the file at `path`.
    ///
    /// - Throws: ``SQLiteStoreError`` naming the file (or its WAL) and the problem.
    init(
        path: String, verification: SQLiteCommandJournal.Verification, busyTimeout: Duration
    ) throws(SQLiteStoreError) {
        self.path = path
        let walSize = Self.size(path + "-wal") ?? 0
        guard let size = Self.size(path) else {
            if walSize > 0 { throw Self.strayWAL(path, reason: "there is no journal file beside it") }
            layout = .absent
            return
        }
        if size == 0 {
            if walSize > 0 { throw Self.strayWAL(path, reason: "the journal file beside it is empty") }
            layout = .empty
            return
        }
        let header = try Self.header(path)
        layout = try Self.inspectThroughWAL(
            path, header: header, walSize: walSize, verification: verification, busyTimeout: busyTimeout)
    }

    /// The first 100 bytes of the file, checked to be SQLite's.
    private static func header(_ path: String) throws(SQLiteStoreError) -> FileHeader {
        let bytes: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            bytes = try handle.read(upToCount: 100) ?? Data()
        } catch {
            throw SQLiteStoreError(code: .cannotOpen, path: path, reason: Self.describe(error))
        }
        guard let header = FileHeader(bytes) else {
            throw SQLiteStoreError(code: .notADatabase, path: path, reason: "file is not a database")
        }
        return header
    }

    private static func inspectThroughWAL(
        _ path: String, header: FileHeader, walSize: Int, verification: SQLiteCommandJournal.Verification,
        busyTimeout: Duration
    ) throws(SQLiteStoreError) -> Layout {
        let found: JournalFileContents
        do {
            found = try JournalFileContents.read(path, verification: verification, busyTimeout: busyTimeout)
        } catch let error as SQLiteStoreError {
            throw error
        } catch {
            throw SQLiteStoreError(path: path, error, opening: true)
        }
        let ours = CommandJournalSchema.applicationID
        if header.applicationID == ours && walSize > 0
            && (found.applicationID != ours || found.identity != header.identity)
        {
            throw foreignWAL(path, found)
        }
        guard found.problems.isEmpty else {
            throw SQLiteStoreError(
                code: .corrupt, path: path, reason: found.problems.prefix(3).joined(separator: "; "))
        }
        if let malformed = found.malformed {
            throw SQLiteStoreError(code: .malformedRecord, path: path, reason: malformed)
        }
        if found.applicationID == ours {
            if found.isLayout2 { return .layout2 }
            if walSize > 0 && header.applicationID == ours { throw foreignWAL(path, found) }
            throw SQLiteStoreError(
                code: .notAJournal, path: path,
                reason: "its commandRecord table has the columns \(found.columns.sorted().joined(separator: ", "))")
        }
        if found.isLayout2 && header.applicationID != ours {
            return .applicationDatabase
        }
        if found.applicationID != 0 || header.applicationID != 0 {
            throw SQLiteStoreError(
                code: .notAJournal, path: path,
                reason: "its application id is \(found.applicationID != 0 ? found.applicationID : header.applicationID)"
            )
        }
        if found.tables.isEmpty { return .empty }
        if found.tables.contains("commandRecord") && found.columns == CommandJournalSchema.layout1Columns {
            return .layout1
        }
        if walSize > 0, (try? JournalFileContents.readMainFileAlone(path))?.tables.contains("commandRecord") == true {
            throw foreignWAL(path, found)
        }
        let reason =
            found.tables.contains("commandRecord")
            ? "its commandRecord table has the columns \(found.columns.sorted().joined(separator: ", "))"
            : "it holds the tables " + found.tables.joined(separator: ", ")
        throw SQLiteStoreError(code: .notAJournal, path: path, reason: reason)
    }

    private static func foreignWAL(_ path: String, _ found: JournalFileContents) -> SQLiteStoreError {
        let becomes =
            found.tables.contains("commandRecord")
            ? "another journal" : "a database of the tables " + found.tables.joined(separator: ", ")
        return strayWAL(path, reason: "applied, it would turn the journal into \(becomes)")
    }

    private static func strayWAL(_ path: String, reason: String) -> SQLiteStoreError {
        SQLiteStoreError(code: .foreignWAL, path: path, reason: reason)
    }

    /// The size of the file at `path`, or `nil` when there is none.
    static func size(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }

    static func describe(_ error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}

/// The 100-byte header of a SQLite file.
struct FileHeader {
    let applicationID: Int32
    /// The journal's random identity (`user_version`).
    let identity: Int32

    init?(_ bytes: Data) {
        guard bytes.count == 100, bytes.starts(with: Array("SQLite format 3\0".utf8)) else { return nil }
        func integer(at offset: Int) -> Int32 {
            let start = bytes.startIndex + offset
            let value = bytes[start..<start + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return Int32(bitPattern: value)
        }
        identity = integer(at: 60)
        applicationID = integer(at: 68)
    }
}
