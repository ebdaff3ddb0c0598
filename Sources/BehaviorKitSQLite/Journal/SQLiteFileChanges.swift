import BehaviorKitSync
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Tells the queue watcher at once when a journal's file changes (another connection wrote
/// its write-ahead log, or the file itself): on Linux an inotify watch of the file's folder,
/// read by a thread of its own as each change comes (it waits in `poll`), so that the watcher reads `PRAGMA data_version` then and not only
/// at its next poll. Elsewhere, or when the kernel refuses a watch, there is none (``start(path:)``
/// answers `nil`) and the watcher polls as before.
final class SQLiteFileChanges: Sendable {
    /// Signalled on each change of the file, its `-wal` or its `-journal`.
    let changes = WakeSignal()
    private let stopped = LockedValue(false)

    private init() {}

    deinit {
        stop()
    }

    /// Stops the watch: its thread closes the descriptor within ``stopLatency`` ms; no signal after.
    func stop() {
        stopped.withLock { $0 = true }
    }

    /// How long the thread waits in `poll`, in milliseconds, before it looks whether the watch
    /// stopped.
    static let stopLatency: Int32 = 100  // milliseconds

    /// A watch of the file at `path`, or `nil` where there is none.
    static func start(path: String) -> SQLiteFileChanges? {
        #if os(Linux)
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let names: Set<String> = [name, name + "-wal", name + "-journal"]
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE)
        guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        let watch = SQLiteFileChanges()
        let changes = watch.changes
        let stopped = watch.stopped
        let timeout = stopLatency
        Thread.detachNewThread {
            defer { close(descriptor) }
            while !stopped.withLock({ $0 }) {
                var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&waiting, 1, timeout) > 0 else { continue }
                if readEvents(descriptor, names: names) && !stopped.withLock({ $0 }) { changes.signal() }
            }
        }
        return watch
        #else
        return nil
        #endif
    }

    #if os(Linux)
    /// Reads the events waiting on `descriptor`; answers whether one names a file of `names`
    /// (or the kernel's queue of events overflowed, which may have dropped one).
    private static func readEvents(_ descriptor: Int32, names: Set<String>) -> Bool {
        let header = MemoryLayout<inotify_event>.size
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var changed = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return changed }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset + header <= count {
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let start = offset + header
                    let end = min(start + length, count)
                    let name = bytes[start..<end].prefix { $0 != 0 }
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 || names.contains(String(decoding: name, as: UTF8.self)) {
                        changed = true
                    }
                    offset = start + length
                }
            }
        }
    }
    #endif
}
