/// Tells a task that submits a write when the write is queued for its commit (in a
/// ``GroupCommit``, or applied by a store that has none), before it is durable: a queue worker
/// frees a command's slot then, so that its next claim is queued after the settlement and joins
/// it in one commit, rather than racing it into a commit of its own.
package enum WriteQueued {
    /// Called in the submitting task once its write is queued; `nil` (the default): nobody
    /// asks. Set it around one write with `$signal.withValue`; it may be called more than once,
    /// and runs its callback once.
    @TaskLocal package static var signal: CallOnce?

    /// Where a write told of (``signal``) waits, when no commit is under way, for the write that
    /// follows it: a queue worker's settlements for its next claim, so that they commit together
    /// (one transaction) rather than the claim waiting for their commit. `nil` (the default):
    /// the write's commit starts at once.
    @TaskLocal package static var heldBy: HeldWrites?
}

/// The commits held back for the write that follows them (``WriteQueued/heldBy``): a queue
/// worker ``release()``s them once its next claim is queued (which starts the commit anyway), or
/// when it has no claim to make, and ``close()``s it when it stops.
package final class HeldWrites: Sendable {
    private let state = LockedValue((starts: [@Sendable () -> Void](), closed: false))

    package init() {}

    /// Keeps `start` until ``release()``; false, and does not keep it, once closed.
    package func hold(_ start: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.starts.append(start)
            return true
        }
    }

    /// Whether a commit is held back.
    package var isHolding: Bool { state.withLock { !$0.starts.isEmpty } }

    /// Starts the commits held back.
    package func release() {
        for start in state.withLock({ state in
            defer { state.starts = [] }
            return state.starts
        }) { start() }
    }

    /// Starts the commits held back, and holds none after.
    package func close() {
        state.withLock { $0.closed = true }
        release()
    }
}

/// A callback that runs at most once, however often and from wherever it is called.
package final class CallOnce: Sendable {
    private let callback: LockedValue<(@Sendable () -> Void)?>

    package init(_ callback: @escaping @Sendable () -> Void) {
        self.callback = LockedValue(callback)
    }

    /// Whether the callback has yet to run.
    package var isPending: Bool { callback.withLock { $0 != nil } }

    /// Runs the callback the first time; does nothing after.
    package func callAsFunction() {
        let callback = self.callback.withLock { callback in
            defer { callback = nil }
            return callback
        }
        callback?()
    }
}
