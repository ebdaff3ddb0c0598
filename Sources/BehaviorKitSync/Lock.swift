#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock over `pthread_mutex_t`.
///
/// BehaviorKit guards shared state with this lock rather than `Synchronization.Mutex`: on Linux
/// ThreadSanitizer does not see `Mutex`'s futex and reports false races in the code it guards,
/// while a pthread mutex is understood, so a clean TSan run means something. The lock is not
/// recursive: never call back into the owner of a lock while holding it.
public final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Creates an unlocked lock.
    public init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Acquires the lock, waiting for it if another thread holds it.
    public func lock() {
        pthread_mutex_lock(mutex)
    }

    /// Releases the lock.
    public func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` while holding the lock.
    @inlinable
    public func withLock<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
