import GRDB

extension SQLiteStoreError {
    /// Classifies an error met while opening, reading or writing the file, about `part`.
    init(path: String, _ error: any Error, opening: Bool, part: Part = .commandJournal) {
        if let error = error as? SQLiteStoreError {
            self = error
            return
        }
        self.init(classifying: error, path: path, opening: opening)
        if part != self.part { self = SQLiteStoreError(code: code, part: part, path: path, reason: reason) }
    }

    /// Classifies `error` as the journal's.
    private init(classifying error: any Error, path: String, opening: Bool) {
        guard let error = error as? DatabaseError else {
            self.init(code: opening ? .cannotOpen : .ioFailed, path: path, reason: "\(error)")
            return
        }
        let reason = error.message ?? "\(error.resultCode)"
        switch error.resultCode {
        case .SQLITE_NOTADB: self.init(code: .notADatabase, path: path, reason: reason)
        case .SQLITE_CORRUPT: self.init(code: .corrupt, path: path, reason: reason)
        case .SQLITE_IOERR where error.extendedResultCode == .SQLITE_IOERR_SHORT_READ:
            self.init(code: .corrupt, path: path, reason: "the file is shorter than its header says (\(reason))")
        case .SQLITE_FULL: self.init(code: .diskFull, path: path, reason: reason)
        case .SQLITE_IOERR
        where [.SQLITE_IOERR_WRITE, .SQLITE_IOERR_FSYNC, .SQLITE_IOERR_TRUNCATE, .SQLITE_IOERR_SHMSIZE]
            .contains(error.extendedResultCode):
            self.init(code: .diskFull, path: path, reason: "\(reason): the disk may be full")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self.init(code: .locked, path: path, reason: "\(reason), \(error.extendedResultCode)")
        case .SQLITE_READONLY: self.init(code: .readOnly, path: path, reason: reason)
        default: self.init(code: opening ? .cannotOpen : .ioFailed, path: path, reason: reason)
        }
    }
}
