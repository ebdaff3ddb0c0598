import Commands
public import StateMachines
import BehaviorKitSync

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
        let now = self.now
        let claimed = try await store.claimEffects(
            machine: name, owner: owner, now: now, leaseExpiresAt: now.adding(leaseDuration), limit: limit)
        var finished = 0
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for record in claimed {
                group.addTask { try await self.run(record, owner: owner, leaseDuration: leaseDuration) }
            }
            for try await ran in group where ran { finished += 1 }
        }
        return finished
    }

    /// Enqueues an outbox record's command on its queue (again after a crash: the enqueue of a
    /// key already there changes nothing), then deletes the record.
    func relay(_ record: MachineEffectRecord, owner: String) async throws -> Bool {
        let body: OutboxBody
        do {
            body = try JSONDecoder().decode(OutboxBody.self, from: Data(record.body))
        } catch {
            throw DurableMachineError.unreadableSnapshot(record.key, "command \(record.id): \(error)")
        }
        guard let journal else { throw DurableMachineError.commandsWithoutJournal(record.key) }
        _ = try await journal.enqueue(body.entry, queue: body.queue, after: .milliseconds(body.delayMilliseconds))
        _ = try await store.finishEffect(record.key, id: record.id, owner: owner, attempts: record.attempts)
        return true
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
        try await apply(.effect(effect, event), to: machineKey(key), eventID: id)
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
