/// Tells a task that submits a write when the write is queued for its commit (in a
/// ``GroupCommit``, or applied by a store that has none), before it is durable: a queue worker
/// frees a command's slot then, so that its next claim is queued after the settlement and joins
/// it in one commit, rather than racing it into a commit of its own.
package enum WriteQueued {
    /// Called in the submitting task once its write is queued; `nil` (the default): nobody
    /// asks. Set it around one write with `$signal.withValue`; it may be called more than once,
    /// and runs its callback once.
    @TaskLocal package static var signal: CallOnce?
}

/// A callback that runs at most once, however often and from wherever it is called.
package final class CallOnce: Sendable {
    private let callback: LockedValue<(@Sendable () -> Void)?>

    package init(_ callback: @escaping @Sendable () -> Void) {
        self.callback = LockedValue(callback)
    }

    /// Runs the callback the first time; does nothing after.
    package func callAsFunction() {
        let callback = self.callback.withLock { callback in
            defer { callback = nil }
            return callback
        }
        callback?()
    }
}
