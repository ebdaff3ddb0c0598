import BehaviorKitSync
import Commands
public import StateMachines

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DurableMachine {
    /// Claims up to `limit` effects that no live worker holds and runs them, each under a lease
    /// of `leaseDuration` renewed while it runs, until they finish; returns how many ran to the
    /// end (or until their state was left) while this worker held them.
    ///
    /// Each event an effect sends is delivered to its instance at most once (a run taken over
    /// after a crash sends its events again under the same ids), and only while the visit that
    /// started the effect lasts. An effect whose state is left stops being renewed, is
    /// cancelled, and its later events are dropped.
    @discardableResult
    public func runEffects(owner: String, leaseDuration: Duration = .seconds(30), limit: Int = 16) async throws -> Int {
        let claimed = try await claimEffects(owner: owner, leaseDuration: leaseDuration, limit: limit)
        var finished = 0
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for record in claimed {
                group.addTask { try await self.run(record, owner: owner, leaseDuration: leaseDuration) }
            }
            for try await ran in group where ran { finished += 1 }
        }
        return finished
    }

    /// Takes up to `limit` effects no live worker holds, for `owner`, under a lease of `leaseDuration`.
    func claimEffects(owner: String, leaseDuration: Duration, limit: Int) async throws -> [MachineEffectRecord] {
        let now = self.now
        return try await store.claimEffects(
            machine: name, owner: owner, now: now, leaseExpiresAt: now.adding(leaseDuration), limit: limit)
    }

    /// Enqueues an outbox record's command on its queue (again after a crash: the enqueue of a
    /// key already there changes nothing), then deletes the record; for a transaction that
    /// reports back, keeps the record until the transaction ended, delivers the report's event
    /// (once: its id names the transaction), then deletes it.
    func relay(_ record: MachineEffectRecord, owner: String) async throws -> Bool {
        let body: OutboxBody
        do {
            body = try JSONDecoder().decode(OutboxBody.self, from: Data(record.body))
        } catch {
            throw DurableMachineError.unreadableSnapshot(record.key, "command \(record.id): \(error)")
        }
        guard let journal else { throw DurableMachineError.commandsWithoutJournal(record.key) }
        let queued = try await journal.enqueue(
            body.entry, queue: body.queue, after: .milliseconds(body.delayMilliseconds))
        if body.reportsBack == true, let report {
            guard queued.isSettled, let ended = try await journal.record(forKey: body.entry.idempotencyKey),
                ended.isSettled
            else {
                // Not ended yet: look again in a second (the record stays, held by this worker till then).
                _ = try await store.renewEffect(
                    record.key, id: record.id, owner: owner, attempts: record.attempts,
                    leaseExpiresAt: now.adding(.seconds(1)))
                return false
            }
            if let event = report(try await transactionReport(ended, journal)) {
                _ = try await apply(.event(event), to: record.key, eventID: "report:\(body.entry.idempotencyKey)")
            }
        }
        _ = try await store.finishEffect(record.key, id: record.id, owner: owner, attempts: record.attempts)
        return true
    }

    /// How a settled transaction ended, with the reason the journal gives (its own, or its failed
    /// step's).
    private func transactionReport(
        _ record: CommandJournalRecord, _ journal: any CommandJournal
    ) async throws
        -> TransactionReport
    {
        let outcome: TransactionReport.Outcome =
            switch record.status {
            case .done, .pending: .done
            case .compensated: .compensated
            case .failed: .failed
            }
        var reason = record.failureReason
        if outcome != .done && reason == nil {
            reason = try await journal.records(parentKey: record.entry.idempotencyKey).first { $0.status == .failed }?
                .failureReason
        }
        return TransactionReport(key: record.entry.idempotencyKey, outcome: outcome, reason: reason)
    }

    /// Delivers `event`, sent by the effect `effect`, to the instance `key`, at most once for
    /// `id`, and only while the visit that started the effect lasts: for effects run by a worker
    /// of your own. ``runEffects(owner:leaseDuration:limit:)`` delivers its effects' events so.
    ///
    /// - Returns: the step, or `nil` when the visit ended (the event is dropped).
    @discardableResult
    public func deliver(
        _ event: Event, from effect: EffectIdentity<State>, to key: String, id: String
    ) async throws -> MachineStep<State, Event>? {
        try await apply(.effect(effect, event), to: try machineKey(key), eventID: try callerEventID(id))
    }

    /// Delivers `event` as the run of the effect `record` would as its `ordinal`-th event, under
    /// the machine's own id: for the conformance kit, which plays a worker that died after it
    /// delivered some.
    package func deliverAsEffectRun(
        _ event: Event, from effect: EffectIdentity<State>, record: MachineEffectRecord, ordinal: Int
    ) async throws -> MachineStep<State, Event>? {
        try await apply(.effect(effect, event), to: record.key, eventID: "effect:\(record.id):\(ordinal)")
    }

    /// Runs one claimed effect; `true` when it finished while its worker still held it.
    func run(_ record: MachineEffectRecord, owner: String, leaseDuration: Duration) async throws -> Bool {
        if record.id.hasPrefix("outbox:") { return try await relay(record, owner: owner) }
        let body: EffectBody<State, Context>
        do {
            body = try JSONDecoder().decode(EffectBody<State, Context>.self, from: Data(record.body))
        } catch {
            throw DurableMachineError.unreadableSnapshot(record.key, "effect \(record.id): \(error)")
        }
        let effects = definition.effects(of: body.effect.state)
        guard body.effect.index >= 0, body.effect.index < effects.count else {
            // The definition no longer has this effect: nothing to run.
            return try await store.finishEffect(record.key, id: record.id, owner: owner, attempts: record.attempts)
        }
        let effect = effects[body.effect.index]
        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        let sender = EventSender<Event> { sink.yield($0) }
        let lost = LockedValue(false)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await effect.run(body.context, sending: sender)
                sink.finish()
            }
            group.addTask {
                // Renews the lease while the effect runs; a renewal refused means the state was
                // left or another worker took over: stop.
                while !Task.isCancelled {
                    try? await Task.sleep(for: leaseDuration / 3)
                    if Task.isCancelled { return }
                    let renewed =
                        (try? await self.store.renewEffect(
                            record.key, id: record.id, owner: owner, attempts: record.attempts,
                            leaseExpiresAt: self.now.adding(leaseDuration))) ?? false
                    if !renewed {
                        lost.withLock { $0 = true }
                        sink.finish()
                        return
                    }
                }
            }
            var ordinal = 0
            for await event in events {
                if lost.withLock({ $0 }) { break }
                ordinal += 1
                let id = "effect:\(record.id):\(ordinal)"
                if try await apply(.effect(body.effect, event), to: record.key, eventID: id) == nil {
                    // The visit ended: the effect is stopped, its later events dropped.
                    break
                }
            }
            group.cancelAll()
            if lost.withLock({ $0 }) { return false }
            // `false` when the effect's own event left its state: the commit that did so deleted it.
            _ = try await store.finishEffect(record.key, id: record.id, owner: owner, attempts: record.attempts)
            return true
        }
    }
}
