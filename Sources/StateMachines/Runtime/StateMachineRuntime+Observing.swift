import BehaviorKitSync

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
            nextID += 1
            observers.append((nextID, observer))
            return nextID
        }
        return ObservationToken { [weak self] in
            self?.lock.withLock { self?.observers.removeAll { $0.id == id } }
        }
    }

    /// Every transition from now on, as an asynchronous sequence. The stream ends when the
    /// runtime stops; it keeps the newest `bufferLimit` transitions a slow reader has not taken.
    public func transitions(bufferLimit: Int = 1024) -> AsyncStream<Transition<State, Event>> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Transition<State, Event>.self, bufferingPolicy: .bufferingNewest(bufferLimit))
        let id = lock.withLock { () -> UInt64? in
            if isStopped { return nil }
            nextID += 1
            streams.append((nextID, continuation))
            return nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.withLock { self.streams.removeAll { $0.id == id } }
        }
        return stream
    }

    /// Claims delivery of pending transitions; called with the lock held.
    func startDelivery() -> Bool {
        guard !delivering, !pending.isEmpty else { return false }
        delivering = true
        return true
    }

    /// Delivers pending transitions, in order, outside the lock, until none are left. Only one
    /// thread delivers at a time, so observers see transitions in the order they happened.
    func deliver() {
        var batch: [Transition<State, Event>] = []
        while true {
            let (observers, streams) = lock.withLock {
                () -> (
                    [(id: UInt64, observe: Observer)],
                    [(id: UInt64, continuation: AsyncStream<Transition<State, Event>>.Continuation)]
                ) in
                swap(&batch, &pending)
                if batch.isEmpty { delivering = false }
                return (self.observers, self.streams)
            }
            if batch.isEmpty { return }
            for transition in batch {
                for observer in observers { observer.observe(transition) }
                for stream in streams { stream.continuation.yield(transition) }
            }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
