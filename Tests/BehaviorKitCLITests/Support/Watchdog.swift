import Foundation

/// Kills a process with SIGKILL once it has run past its time bound (a test's guard against a
/// run that never ends); `fired` says whether it did.
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    private var killed = false

    init(_ process: Process, after bound: Duration) {
        let identifier = process.processIdentifier
        let seconds = Double(bound.components.seconds) + Double(bound.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            lock.lock()
            defer { lock.unlock() }
            guard !done else { return }
            killed = true
            kill(identifier, SIGKILL)
        }
    }

    /// Stops the watch: the process ended (call before its identifier can be reused).
    func cancel() {
        lock.lock()
        done = true
        lock.unlock()
    }

    var fired: Bool {
        lock.lock()
        defer { lock.unlock() }
        return killed
    }
}

/// Bytes one thread reads for another.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func set(_ data: Data) {
        lock.lock()
        self.data = data
        lock.unlock()
    }

    var value: Data {
        lock.lock()
        defer { lock.unlock() }
        return data
    }
}
