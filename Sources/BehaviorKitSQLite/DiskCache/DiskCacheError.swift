import Foundation

/// Why a ``DiskCache`` could not open, read or write its file. Names the file.
///
/// ```swift
/// do { _ = try DiskCache<Int, Movie>(path: "/tmp/movies.sqlite") } catch {
///     print(error)
///     // disk cache /tmp/movies.sqlite: not a readable SQLite database (file is not a database);
///     // delete the file, or open it with ifUnreadable: .rebuild
/// }
/// ```
public struct DiskCacheError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public enum Code: Hashable, Sendable {
        /// The file exists but is not a readable SQLite database (corrupt, or something else).
        case unreadable
        /// The file cannot be opened or created (a missing folder, no permission, a folder in
        /// its place).
        case cannotOpen
        /// The file's folder cannot be created (a file in the way, no permission).
        case folderUnavailable
        /// A read or write failed after the file was opened.
        case ioFailed
        /// A key or value could not be encoded.
        case encodingFailed
    }

    /// What went wrong.
    public let code: Code
    /// The cache's file.
    public let path: String
    /// The folder of the cache's file.
    public var folder: String { (path as NSString).deletingLastPathComponent }
    /// What SQLite or the encoder said.
    public let reason: String

    /// Creates an error about the file at `path`.
    public init(code: Code, path: String, reason: String) {
        self.code = code
        self.path = path
        self.reason = reason
    }

    /// Names the file, what is wrong with it and, where there is one, what to do.
    public var description: String {
        switch code {
        case .unreadable:
            "disk cache \(path): not a readable SQLite database (\(reason)); "
                + "delete the file, or open it with ifUnreadable: .rebuild"
        case .cannotOpen: "disk cache \(path): cannot open the file (\(reason))"
        case .folderUnavailable: "disk cache folder \(folder) cannot be created: \(reason)"
        case .ioFailed: "disk cache \(path): \(reason)"
        case .encodingFailed: "disk cache \(path): cannot encode (\(reason))"
        }
    }
}
