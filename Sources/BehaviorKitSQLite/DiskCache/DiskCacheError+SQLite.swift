import GRDB

extension DiskCacheError {
    /// Classifies an error met while opening the file.
    init(path: String, opening error: any Error) {
        guard let error = error as? DatabaseError else {
            self.init(code: .cannotOpen, path: path, reason: "\(error)")
            return
        }
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            self.init(code: .unreadable, path: path, reason: Self.reason(error))
        default:
            self.init(code: .cannotOpen, path: path, reason: Self.reason(error))
        }
    }

    /// Classifies an error met while reading or writing.
    init(path: String, using error: any Error) {
        if let error = error as? DatabaseError, [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            self.init(code: .unreadable, path: path, reason: Self.reason(error))
        } else if let error = error as? DatabaseError {
            self.init(code: .ioFailed, path: path, reason: Self.reason(error))
        } else {
            self.init(code: .ioFailed, path: path, reason: "\(error)")
        }
    }

    private static func reason(_ error: DatabaseError) -> String {
        error.message ?? "\(error.resultCode)"
    }
}
