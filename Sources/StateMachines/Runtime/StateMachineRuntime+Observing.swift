public import BehaviorKitSync
import Synchronization

/// Cancels an observation when you call ``cancel()``.
public struct ObservationToken: Sendable {
    let onCancel: @Sendable () -> Void

    /// Stops the observer; it is called no more.
    public func cancel() { onCancel() }
}

extension StateMachineRuntime {
    /// Calls `observer` after every transition (in a statechart, every microstep: each region's
    /// transition, then eventless, raised and done steps), in order, outside the runtime's lock
    /// (so it may send events; those are delivered after the current one).
    @discardableResult
    public func observe(_ observer: @escaping Observer) -> ObservationToken {
        let id = locked { addListener({ (id: $0, observe: observer) }, to: \.observers, counted: \.listeners) }
        return ObservationToken { [weak self] in
            self?.removeListener(id, from: \.observers, counted: \.listeners, id: \.id)
        }
    }

    /// Calls `observer` with every refused event (no transition, failed guards, `Refuse`, a final
    /// state, a stopped runtime, an endless loop cut short, a re-entrant send), in order with the
    /// transitions, outside the runtime's lock.
    ///
    /// ```swift
    /// runtime.observeRefusals { refusal in log.warning("\(refusal)") }
    /// ```
    @discardableResult
    public func observeRefusals(_ observer: @escaping @Sendable (Refusal<State, Event>) -> Void) -> ObservationToken {
        let id = locked {
            addListener({ (id: $0, observe: observer) }, to: \.refusalObservers, counted: \.refusalListeners)
        }
        return ObservationToken { [weak self] in
            self?.removeListener(id, from: \.refusalObservers, counted: \.refusalListeners, id: \.id)
        }
    }

    /// Every transition from now on, as an asynchronous sequence. The stream ends when the
    /// runtime stops or the machine reaches a top-level final state; it keeps the newest
    /// `bufferLimit` transitions a slow reader has not taken.
    public func transitions(bufferLimit: Int = 1024) -> AsyncStream<Transition<State, Event>> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Transition<State, Event>.self, bufferingPolicy: .bufferingNewest(bufferLimit))
        let id = locked { () -> UInt64? in
            if core.pointee.isStopped || core.pointee.machine.isFinished { return nil }
            return addListener({ (id: $0, continuation: continuation) }, to: \.streams, counted: \.listeners)
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.removeListener(id, from: \.streams, counted: \.listeners, id: \.id)
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

    /// Gives up the delivering role after one transition was delivered, unless notices arrived
    /// meanwhile or streams may have to finish: then delivers them as `deliverPending` does.
    @inlinable
    func finishDelivering() {
        lock.lock()
        if core.pointee.pending.isEmpty && core.pointee.streams.isEmpty {
            core.pointee.delivering = false
            lock.unlock()
            return
        }
        lock.unlock()
        deliverPending()
    }

    /// Delivers pending notices in order, outside the lock, until none are left; then gives up
    /// the delivering role, finishing the streams if the machine is done. Only the thread that
    /// holds that role calls it, so observers see notices in the order they happened, and an
    /// observer that sends does not deadlock.
    @inlinable
    func deliverPending() {
        var batch: [RuntimeNotice<State, Event>] = []
        while true {
            lock.lock()
            if core.pointee.pending.isEmpty {
                core.pointee.delivering = false
                var finished: [AsyncStream<Transition<State, Event>>.Continuation] = []
                if !core.pointee.streams.isEmpty && core.pointee.machine.isFinished {
                    finished = core.pointee.streams.map(\.continuation)
                    core.pointee.listeners -= core.pointee.streams.count
                    core.pointee.streams.removeAll()
                }
                lock.unlock()
                for continuation in finished { continuation.finish() }
                return
            }
            swap(&batch, &core.pointee.pending)
            let observers = core.pointee.observers
            let refusalObservers = core.pointee.refusalObservers
            let streams = core.pointee.streams
            lock.unlock()
            for notice in batch {
                switch notice {
                case .transition(let transition): notify(transition, observers: observers, streams: streams)
                case .refusal(let refusal): for observer in refusalObservers { observer.observe(refusal) }
                }
            }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
