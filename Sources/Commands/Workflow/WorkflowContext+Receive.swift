import BehaviorKitSync

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension WorkflowContext {
    /// The next message sent to this run on `topic` (``Workflows/send(_:to:topic:id:)``), or
    /// `nil` once `timeout` has passed without one, durably: the wait is written down at the
    /// run's next position, the worker lets the run go while it waits, a send makes it due at
    /// once (``CommandJournal/wake(_:)``: any worker takes it up, woken by the queue), and the
    /// answer, once given, is the answer every later attempt at the run gets. Each message (each
    /// id) is received once. The run also looks again every ten ``Workflows/pollInterval``s, in
    /// case a wake-up was lost (its sender stopped between writing the message and waking the
    /// run): a run that waits long is taken up, answered from the journal and let go again once
    /// in ten polls, not at each.
    ///
    /// ```swift
    /// guard let payment = try await context.receive(Payment.self, topic: "paid", timeout: .seconds(86_400)) else {
    ///     return .expired
    /// }
    /// ```
    ///
    /// - Throws: ``WorkflowError/nondeterministic(key:position:recorded:requested:)`` when the
    ///   journal recorded something else at this position; ``WorkflowError/undecodable(key:reason:)``
    ///   when the message does not decode as `M`; ``WorkflowError/invalidKey(key:reason:)`` for a
    ///   topic with a `"/"` (the run fails).
    public func receive<M: Codable & Sendable>(
        _ type: M.Type = M.self, topic: String, timeout: Duration
    ) async throws -> M? {
        do {
            _ = try WorkflowRecord.checked(topic, as: "topic")
        } catch {
            throw stop(error)
        }
        let position = try next()
        try await flush()
        var waiting = recorded[position]
        if let record = waiting {
            try check(record, kind: WorkflowRecord.receiveKind, name: topic, at: position)
            if record.status == .done {
                let delivery = try decoded(WorkflowDelivery.self, record.output ?? [], position)
                return try delivery.message.map { try decoded(M.self, $0, position) }
            }
        } else {
            let entry = entry(position, kind: WorkflowRecord.receiveKind, name: topic)
            waiting = try await journaled { try await journal.append(entry, lease: lease) }
        }
        let deadline = (waiting?.createdAt ?? claimedAt).adding(timeout)
        let childKey = WorkflowRecord.childKey(key, position)
        while let message = try await journaled({ try await claimMessage(topic) }) {
            let messageLease = engine.invoker.lease.fenced(by: message)
            if state.withLock({ $0.consumed.contains(message.id) }) {
                // Received by an earlier position, whose worker stopped before settling it.
                await settleHere(message.id, lease: messageLease)
                continue
            }
            let delivery = WorkflowDelivery(messageKey: message.id, message: message.entry.payload)
            do {
                let output = try StepOutput.encode(delivery, key: childKey)
                try await journal.settle([.settle(childKey, as: .done(output: output))], lease: lease)
            } catch {
                try? await journal.release(message.id, lease: messageLease, after: .zero)
                throw stop(error)
            }
            state.withLock {
                $0.consumed.insert(message.id)
                $0.receivedFrom.insert(WorkflowRecord.mailbox(key, topic: topic))
            }
            await settleHere(message.id, lease: messageLease)
            return try decoded(M.self, message.entry.payload, position)
        }
        if deadline <= claimedAt {
            let output: [UInt8]
            do {
                output = try StepOutput.encode(WorkflowDelivery(), key: childKey)
            } catch {
                throw stop(error)
            }
            try await journaled {
                try await journal.settle([.settle(childKey, as: .done(output: output))], lease: lease)
            }
            return nil
        }
        state.withLock { $0.mailbox = WorkflowRecord.mailbox(key, topic: topic) }
        throw suspend(min(claimedAt.duration(to: deadline), engine.childPollInterval))
    }

    /// Settles the consumed message `key`; one that does not settle (a journal error, a lost
    /// lease) is left to the net before the run settles (``settleConsumedMessages()``).
    private func settleHere(_ key: String, lease: JournalLease) async {
        guard (try? await journal.settle(key, as: .done(output: nil), lease: lease)) != nil else { return }
        state.withLock { _ = $0.settledHere.insert(key) }
    }

    /// Takes the oldest message due on the run's mailbox for `topic`, if any.
    private func claimMessage(_ topic: String) async throws -> CommandJournalRecord? {
        try await journal.claim(
            1, from: WorkflowRecord.mailbox(key, topic: topic), concurrency: nil, takingOverFrom: nil,
            lease: engine.invoker.lease
        ).records.first
    }

    /// `bytes` (a recorded delivery, or a message) decoded; when they do not decode, the run stops.
    private func decoded<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], _ position: Int) throws -> T {
        do {
            return try StepOutput.decode(T.self, from: bytes, key: key)
        } catch {
            throw stop(WorkflowError.undecodable(key: key, reason: "the message at position \(position): \(error)"))
        }
    }
}
