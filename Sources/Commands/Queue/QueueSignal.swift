import BehaviorKitSync

/// The wake-ups of one journal's queues in this process: ``signal(_:)`` wakes every stream of
/// ``wakeups(of:)`` for that queue (or of every queue), each at most once until it is read.
package final class QueueSignal: Sendable {
    private struct Subscriber {
        var queue: String
        var continuation: AsyncStream<Void>.Continuation
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
        var finished = false
    }

    private let state = LockedValue(State())

    package init() {}

    /// Wakes the streams of `queue`; of every queue when `queue` is `nil`.
    package func signal(_ queue: String?) {
        let woken = state.withLock { state in
            state.subscribers.values.filter { queue == nil || $0.queue == queue }.map(\.continuation)
        }
        for continuation in woken { continuation.yield() }
    }

    /// The queues that someone waits on now.
    package var queues: Set<String> {
        state.withLock { Set($0.subscribers.values.map(\.queue)) }
    }

    /// A wake-up each time `queue` is signalled, merged while unread; finished by ``finish()``.
    package func wakeups(of queue: String) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state -> Int? in
            guard !state.finished else { return nil }
            defer { state.nextID += 1 }
            state.subscribers[state.nextID] = Subscriber(queue: queue, continuation: continuation)
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every stream, and those asked for later: the journal closed.
    package func finish() {
        let all = state.withLock { state in
            state.finished = true
            defer { state.subscribers = [:] }
            return state.subscribers.values.map(\.continuation)
        }
        for continuation in all { continuation.finish() }
    }
}
