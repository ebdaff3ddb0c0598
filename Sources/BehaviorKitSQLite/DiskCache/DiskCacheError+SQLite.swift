import Foundation
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
            self.init(code: .cannotOpen, path: path, reason: Self.diagnose(path) ?? Self.reason(error))
        }
    }

    /// Why `path` cannot be a database file, in plain words, when the file system tells.
    private static func diagnose(_ path: String) -> String? {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            return isFolder.boolValue ? "\(path) is a folder" : nil
        }
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty else { return nil }
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            return "the folder \(folder) does not exist"
        }
        return isFolder.boolValue ? nil : "\(folder) is a file, not a folder"
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
