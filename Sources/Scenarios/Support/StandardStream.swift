import BehaviorKitSync

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output or standard error, written with POSIX `write(2)`: a full disk, a closed pipe
/// or a closed descriptor loses the text, and never stops the process.
///
/// ```swift
/// StandardStream.ignoreBrokenPipes()          // once, at launch
/// StandardStream.error.write("error: …\n")   // to /dev/full too
/// ```
///
/// `FileHandle.write` traps on a full disk, and a process that writes to a pipe whose reader
/// is gone is killed by `SIGPIPE` unless it ignores the signal: these are the two ways out.
public enum StandardStream: Int32, Sendable {
    /// Standard output (descriptor 1).
    case output = 1
    /// Standard error (descriptor 2).
    case error = 2

    /// Keeps each line whole when several tasks write at once.
    private static let lock = LockedValue(())

    /// Writes `text`, all of it: again after a signal interrupts the call and after a partial
    /// write. Gives up quietly on any other failure (`EPIPE`, `ENOSPC`, `EBADF`, …).
    public func write(_ text: String) {
        var bytes = Array(text.utf8)
        Self.lock.withLock { _ in
            bytes.withUnsafeMutableBytes { buffer in
                guard let start = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    let written = Self.systemWrite(rawValue, start + offset, buffer.count - offset)
                    if written > 0 {
                        offset += written
                    } else if written < 0 && errno == EINTR {
                        continue
                    } else {
                        return
                    }
                }
            }
        }
    }

    /// Writes `line` and a newline.
    public func writeLine(_ line: String) {
        write(line + "\n")
    }

    /// Makes a write to a pipe whose reader is gone fail with `EPIPE` instead of killing the
    /// process with `SIGPIPE`. Call once, before anything is written.
    public static func ignoreBrokenPipes() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.write(descriptor, bytes, count)
        #elseif canImport(Musl)
        Musl.write(descriptor, bytes, count)
        #else
        Glibc.write(descriptor, bytes, count)
        #endif
    }
}
