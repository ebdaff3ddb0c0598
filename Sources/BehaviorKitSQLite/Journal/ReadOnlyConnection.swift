import Foundation
import GRDB

/// A read-only connection that adds no file beside the database: SQLite makes a WAL and its
/// shared-memory index for any connection to a WAL database, a read-only one included, and
/// only the last writer removes them. A file that has none of them (nor a rollback journal) beside it is open in no process,
/// and the main file holds every committed record: it is then read as immutable (SQLite's
/// `immutable=1`), which takes no lock and creates nothing. Otherwise the connection uses the
/// WAL and index already there, and waits up to `busyTimeout` for another process (one that
/// rebuilds the index, say).
///
/// Where SQLite does not take URIs (`SQLITE_USE_URI`), the file is opened plainly.
enum ReadOnlyConnection {
    static func open(_ path: String, busyTimeout: Duration) throws -> DatabaseQueue {
        let configuration = JournalFileContents.readOnly(busyTimeout: busyTimeout)
        let manager = FileManager.default
        // A rollback journal beside it: another process is writing it (creating it, say), and
        // a read that takes no lock could see its pages half written.
        if !["-wal", "-shm", "-journal"].contains(where: { manager.fileExists(atPath: path + $0) }) {
            do {
                return try DatabaseQueue(path: immutableURI(path), configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN {
                // A SQLite that takes no URIs looked for a file named by the URI: open plainly.
            }
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// `file:///absolute/path?immutable=1`, with `%`, `?` and `#` escaped.
    static func immutableURI(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var escaped = ""
        for character in absolute {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return "file://" + escaped + "?immutable=1"
    }
}
