import BehaviorKitSync
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The news, between processes, that a journal's file has new work: a journal whose commit
/// enqueued or resumed a queue touches the file's times once it committed (``announce(_:)``),
/// and the queue watcher of every other process on the file, told by the kernel (Linux: an
/// inotify watch of the file's folder, read by a thread of its own that waits in `poll`), looks
/// at once instead of at its next poll. The touch comes after the commit, so the look sees it.
/// Elsewhere there is no watch (``watch(path:)`` answers `nil`) and the watcher polls, as it
/// does too for work that comes without the news (an enqueue in the application's own
/// transaction, a retry, a lease that ended).
final class SQLiteFileChanges: Sendable {
    /// Signalled on each announcement by another journal on the file (or by this one).
    let enqueues = WakeSignal()
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
    static let stopLatency: Int32 = 100

    /// Tells the watchers of the file at `path` that a commit just made new work: sets its
    /// access and modification times to now (one system call; the file's contents are
    /// untouched). A failure changes nothing: the watchers find the work at their next poll.
    static func announce(_ path: String) {
        #if os(Linux)
        _ = utimensat(AT_FDCWD, path, nil, 0)
        #endif
    }

    /// A watch of the announcements on the file at `path`, or `nil` where there is none.
    static func watch(path: String) -> SQLiteFileChanges? {
        #if os(Linux)
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        guard inotify_add_watch(descriptor, folder, UInt32(IN_ATTRIB)) >= 0 else {
            close(descriptor)
            return nil
        }
        let watch = SQLiteFileChanges()
        let enqueues = watch.enqueues
        let stopped = watch.stopped
        Thread.detachNewThread {
            defer { close(descriptor) }
            while !stopped.withLock({ $0 }) {
                var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&waiting, 1, stopLatency) > 0 else { continue }
                if readEvents(descriptor, name: name) && !stopped.withLock({ $0 }) { enqueues.signal() }
            }
        }
        return watch
        #else
        return nil
        #endif
    }

    #if os(Linux)
    /// Reads the events waiting on `descriptor`; answers whether one names the file `name` (or
    /// the kernel's queue of events overflowed, which may have dropped one).
    private static func readEvents(_ descriptor: Int32, name: String) -> Bool {
        let header = MemoryLayout<inotify_event>.size
        let wanted = Array(name.utf8)
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var told = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return told }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset + header <= count {
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let start = offset + header
                    let end = min(start + length, count)
                    if mask & UInt32(IN_Q_OVERFLOW) != 0
                        || bytes[start..<end].prefix(while: { $0 != 0 }).elementsEqual(wanted)
                    {
                        told = true
                    }
                    offset = start + length
                }
            }
        }
    }
    #endif
}
