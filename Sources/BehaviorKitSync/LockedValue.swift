/// A value that is only read or written while its lock is held.
///
/// ```swift
/// let counter = LockedValue(0)
/// counter.withLock { $0 += 1 }
/// ```
public final class LockedValue<Value> {
    @usableFromInline
    let lock = Lock()

    @usableFromInline
    var value: Value

    /// Creates a guarded value.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension LockedValue: @unchecked Sendable where Value: Sendable {}
