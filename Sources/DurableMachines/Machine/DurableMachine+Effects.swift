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
    /// of `leaseDuration` that a heartbeat renews while it runs (as a command's is), until
    /// they finish; returns how many ran to the end (or until their state was left) while this
    /// worker held them.
    ///
    /// Each event an effect sends is delivered to its instance at most once (a run taken over
    /// after a crash sends its events again under the same ids), and only while the visit that
    /// started the effect lasts. An effect whose state is left stops being renewed, is
    /// cancelled, and its later events are dropped; so is one whose lease this worker could not
    /// renew for two thirds of its duration (a paused process, an unreachable store), before
    /// another worker may take it over.
    @discardableResult
    public func runEffects(owner: String, leaseDuration: Duration = .seconds(30), limit: Int = 16) async throws -> Int {
        let keeper = effectKeeper(owner: owner, leaseDuration: leaseDuration, clock: ContinuousClock())
        let claimed = try await claimEffects(keeper, limit: limit)
        var finished = 0
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for record in claimed {
                group.addTask { try await self.run(record, keeper: keeper) }
            }
            for try await ran in group where ran { finished += 1 }
        }
        return finished
    }

    /// The keeper of the effects `owner` runs, under leases of `leaseDuration` renewed on
    /// `clock`: the journal's lease system (heartbeat, watchdog, fencing token), renewing
    /// through the machine store.
    func effectKeeper(owner: String, leaseDuration: Duration, clock: some Clock<Duration>) -> LeaseKeeper {
        let lease = JournalLease(owner: owner, duration: max(leaseDuration, .milliseconds(3)))
        let renewal = LeaseRenewal { attempts in
            try await withThrowingTaskGroup(of: String?.self) { group in
                for (hold, token) in attempts {
                    guard let separator = hold.firstIndex(of: "\u{0}") else { continue }
                    let key = MachineKey(machine: self.name, key: String(hold[..<separator]))
                    let id = String(hold[hold.index(after: separator)...])
                    group.addTask {
                        let kept = try await self.store.renewEffect(
                            key, id: id, owner: owner, attempts: token, leaseExpiresAt: self.now.adding(lease.duration))
                        return kept ? hold : nil
                    }
                }
                return try await group.reduce(into: []) { kept, hold in if let hold { kept.append(hold) } }
            }
        }
        return LeaseKeeper(renewal: renewal, lease: lease, clock: ElapsedClock(clock), instruments: instruments)
    }

    /// The name of an effect's hold in its keeper: the instance key and the effect id, apart by
    /// a NUL (which no instance key holds: ``InvalidKeyError``).
    func hold(of record: MachineEffectRecord) -> String { "\(record.key.key)\u{0}\(record.id)" }

    /// Takes up to `limit` effects no live worker holds, for the keeper's owner, under its
    /// lease; the keeper keeps them from the moment the claim was sent (an outbox record, relayed
    /// at once, is not kept).
    func claimEffects(_ keeper: LeaseKeeper, limit: Int) async throws -> [MachineEffectRecord] {
        let sent = keeper.now
        let now = self.now
        let claimed = try await store.claimEffects(
            machine: name, owner: keeper.lease.owner, now: now, leaseExpiresAt: now.adding(keeper.lease.duration),
            limit: limit)
        keeper.adopt(claimed.filter { !$0.isOutbox }.map { (hold(of: $0), $0.attempts) }, confirmedAt: sent)
        return claimed
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

    /// Runs one claimed effect under `keeper`; `true` when it finished while its worker still
    /// held it, `false` when its lease was lost (the state was left, another worker took it
    /// over, or the renewals failed for too long).
    func run(_ record: MachineEffectRecord, keeper: LeaseKeeper) async throws -> Bool {
        if record.isOutbox { return try await relay(record, owner: keeper.lease.owner) }
        do {
            return try await keeper.hold(hold(of: record), token: record.attempts) {
                try await self.runHeld(record, keeper: keeper)
            }
        } catch CommandJournalError.leaseLost {
            return false
        }
    }

    /// Runs the effect `record`, which `keeper` holds; its events are delivered while the hold
    /// lasts, each after the lease was checked.
    private func runHeld(_ record: MachineEffectRecord, keeper: LeaseKeeper) async throws -> Bool {
        let hold = hold(of: record)
        let owner = keeper.lease.owner
        let body: EffectBody<State, Context>
        do {
            body = try JSONDecoder().decode(EffectBody<State, Context>.self, from: Data(record.body))
        } catch {
            throw DurableMachineError.unreadableSnapshot(record.key, "effect \(record.id): \(error)")
        }
        let effects = try definition(version: body.definitionVersion ?? 1, of: record.key).effects(
            of: body.effect.state)
        guard body.effect.index >= 0, body.effect.index < effects.count else {
            // The definition no longer has this effect: nothing to run.
            return try await keeper.settling(hold, token: record.attempts) {
                try await store.finishEffect(record.key, id: record.id, owner: owner, attempts: record.attempts)
            }
        }
        let effect = effects[body.effect.index]
        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        let sender = EventSender<Event> { sink.yield($0) }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await effect.run(body.context, sending: sender)
                sink.finish()
            }
            var ordinal = 0
            // Ends early when the keeper cancels the hold (its lease was lost).
            for await event in events {
                try await keeper.check(hold, token: record.attempts)
                ordinal += 1
                let id = "effect:\(record.id):\(ordinal)"
                if try await apply(.effect(body.effect, event), to: record.key, eventID: id) == nil {
                    // The visit ended: the effect is stopped, its later events dropped.
                    break
                }
            }
            group.cancelAll()
            try Task.checkCancellation()
            // `false` when the effect's own event left its state: the commit that did so deleted it.
            _ = try await keeper.settling(hold, token: record.attempts) {
                try await store.finishEffect(record.key, id: record.id, owner: owner, attempts: record.attempts)
            }
            return true
        }
    }
}

extension MachineEffectRecord {
    /// Whether the record is a step's outbox command, relayed to the journal, not an effect.
    var isOutbox: Bool { id.hasPrefix("outbox:") }
}
