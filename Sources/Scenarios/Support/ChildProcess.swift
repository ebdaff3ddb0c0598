import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn` and reaped with `waitpid` by its owner alone.
///
/// The fleet's driver starts, kills and restarts many children, some of which exit on their own
/// at the same moment: Foundation's `Process` then sometimes never notices one exit (it stays a
/// zombie and `isRunning` stays true), and a driver waiting on it hangs for good. Here the
/// owner reaps each child itself, so an exit is never missed.
final class ChildProcess: Sendable {
    /// The process id.
    let pid: pid_t

    /// A child that failed to start: the call and its `errno`.
    struct SpawnFailed: Error, CustomStringConvertible {
        let path: String, code: Int32
        var description: String { "cannot start \(path): \(String(cString: strerror(code)))" }
    }

    /// Starts `path` with `arguments`, its standard output and error appended to `log` (or
    /// discarded when `nil`), its standard input `/dev/null`.
    init(_ path: String, _ arguments: [String], log: String?) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([path] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, path, &actions, nil, argv + [nil], environ)
        guard code == 0 else { throw SpawnFailed(path: path, code: code) }
        self.pid = pid
    }

    /// Sends `signal` to the child (nothing when it was reaped already).
    func signal(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Whether the child still runs; reaps it when it exited, and answers its exit status then.
    func poll() -> Int32? {
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        guard reaped == pid else { return reaped == 0 ? nil : -1 }
        return Self.exitCode(status)
    }

    /// Waits for the child to exit, without blocking a thread; returns its exit status (the
    /// signal's number plus 128 when a signal ended it).
    func exit() async -> Int32 {
        while true {
            if let code = poll() { return code }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    private static func exitCode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
