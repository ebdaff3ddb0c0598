public import BehaviorKitSync

/// Cancels an observation when you call ``cancel()``.
public struct ObservationToken: Sendable {
    let onCancel: @Sendable () -> Void

    /// Stops the observer; it is called no more.
    public func cancel() { onCancel() }
}

extension StateMachineRuntime {
    /// Calls `observer` after every transition, in order, outside the runtime's lock (so it
    /// may send events; those are delivered after the current one).
    @discardableResult
    public func observe(_ observer: @escaping Observer) -> ObservationToken {
        let id = lock.withLock { () -> UInt64 in
            core.pointee.nextID += 1
            core.pointee.observers.append((core.pointee.nextID, observer))
            core.pointee.listeners += 1
            return core.pointee.nextID
        }
        return ObservationToken { [weak self] in
            guard let self else { return }
            self.lock.withLock {
                let before = self.core.pointee.observers.count
                self.core.pointee.observers.removeAll { $0.id == id }
                self.core.pointee.listeners -= before - self.core.pointee.observers.count
            }
        }
    }

    /// Every transition from now on, as an asynchronous sequence. The stream ends when the
    /// runtime stops; it keeps the newest `bufferLimit` transitions a slow reader has not taken.
    public func transitions(bufferLimit: Int = 1024) -> AsyncStream<Transition<State, Event>> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Transition<State, Event>.self, bufferingPolicy: .bufferingNewest(bufferLimit))
        let id = lock.withLock { () -> UInt64? in
            if core.pointee.isStopped { return nil }
            core.pointee.nextID += 1
            core.pointee.streams.append((core.pointee.nextID, continuation))
            core.pointee.listeners += 1
            return core.pointee.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.withLock {
                let before = self.core.pointee.streams.count
                self.core.pointee.streams.removeAll { $0.id == id }
                self.core.pointee.listeners -= before - self.core.pointee.streams.count
            }
        }
        return stream
    }

    @inlinable
    func notify(
        _ transition: Transition<State, Event>,
        observers: [(id: UInt64, observe: Observer)],
        streams: [(id: UInt64, continuation: AsyncStream<Transition<State, Event>>.Continuation)]
    ) {
        for observer in observers { observer.observe(transition) }
        for stream in streams { stream.continuation.yield(transition) }
    }

    /// Delivers pending transitions in order, outside the lock, until none are left; then gives
    /// up the delivering role. Only the thread that holds that role calls it, so observers see
    /// transitions in the order they happened, and an observer that sends does not deadlock.
    @inlinable
    func deliverPending() {
        var batch: [Transition<State, Event>] = []
        while true {
            lock.lock()
            if core.pointee.pending.isEmpty {
                core.pointee.delivering = false
                lock.unlock()
                return
            }
            swap(&batch, &core.pointee.pending)
            let observers = core.pointee.observers
            let streams = core.pointee.streams
            lock.unlock()
            for transition in batch { notify(transition, observers: observers, streams: streams) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
