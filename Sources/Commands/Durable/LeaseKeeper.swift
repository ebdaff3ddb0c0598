package import BehaviorKitSync

/// Keeps a worker's leases alive: while the worker holds root records, a heartbeat renews
/// their leases every third of the lease; a record whose renewal comes back without it was
/// lost (another worker took it over), and its work is cancelled. A watchdog on the same beat
/// cancels the work of every hold not confirmed for two thirds of the lease — whether the
/// journal is unreachable or only slow — so that the worker stops a third of a lease before
/// another worker may take its records over.
///
/// Each hold is one attempt: a record's key and the fencing token its begin or claim gave it.
/// When the worker claims a record again (its lease lapsed while the worker stalled), the new
/// attempt replaces the old one, whose work is cancelled and whose checks fail from then on.
///
/// What the keeper holds is named by a string key and renewed by ``LeaseRenewal``: a journal's
/// root records for a ``JournaledInvoker``, a machine's effects for `DurableMachine`'s loop —
/// one lease system, one watchdog, one clock.
///
/// No task runs while the worker holds nothing.
package final class LeaseKeeper: Sendable {
    struct Hold {
        /// The fencing token of the attempt.
        var token: Int
        /// When the lease was last confirmed (the time its claim or renewal was sent).
        var confirmedAt: Duration
        /// Cancels the work running under the hold.
        var cancel: (@Sendable () -> Void)?
        var lost = false
        /// The worker settled the record itself: nothing is left to renew or to lose.
        var settled = false
        /// The write that settles the record is under way: a renewal that finds the record no
        /// longer held, or a lease that lapses meanwhile, tells nothing until it answers.
        var settling = false
        /// Such a loss, seen while settling: it counts only if the settlement fails.
        var lostWhileSettling = false
    }

    struct State {
        var holds: [String: Hold] = [:]
        var heartbeat = false
        var renewing = false
        var lastRenewal: Duration?
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        /// Whether the worker ever held a record, or began one: a worker that did not is a new
        /// incarnation.
        var everHeld = false
        /// A first claim that takes over the records of an earlier incarnation is under way.
        var takingOver = false
        /// Begins waiting for that claim to answer.
        var beginWaiters: [CheckedContinuation<Void, Never>] = []
    }

    let state = LockedValue(State())
    let renewal: LeaseRenewal
    package let lease: JournalLease
    package let clock: ElapsedClock
    let instruments: DurableInstruments

    /// A keeper of what `renewal` renews, for `lease`'s owner and duration, on `clock`.
    package init(renewal: LeaseRenewal, lease: JournalLease, clock: ElapsedClock, instruments: DurableInstruments) {
        self.renewal = renewal
        self.lease = lease
        self.clock = clock
        self.instruments = instruments
    }

    /// A keeper of `journal`'s root records that `lease`'s owner begins or claims.
    convenience init(
        journal: any CommandJournal, lease: JournalLease, clock: ElapsedClock, instruments: DurableInstruments
    ) {
        self.init(renewal: .journal(journal, lease), lease: lease, clock: clock, instruments: instruments)
    }

    /// How often the heartbeat renews.
    var interval: Duration { lease.duration / 3 }

    /// The time now, on the keeper's clock: pass it as `confirmedAt` for a claim sent now.
    package var now: Duration { clock.now }

    /// Registers `records`, begun or claimed by a request sent at `confirmedAt`, as held at
    /// their fencing tokens. An earlier attempt at one of them that this worker still runs is
    /// lost: the new claim shows its lease lapsed, so its work is cancelled.
    func adopt(_ records: [CommandJournalRecord], confirmedAt: Duration) {
        adopt(records.map { ($0.id, $0.attempts) }, confirmedAt: confirmedAt)
    }

    /// Registers `attempts` (key and fencing token), begun or claimed by a request sent at
    /// `confirmedAt`, as held, as the journal records' overload does.
    package func adopt(_ attempts: [(key: String, token: Int)], confirmedAt: Duration) {
        let (start, stale) = state.withLock { state -> (Bool, [@Sendable () -> Void]) in
            var stale: [@Sendable () -> Void] = []
            for (key, token) in attempts {
                if let old = state.holds[key], old.token != token, let cancel = old.cancel {
                    stale.append(cancel)
                }
                state.holds[key] = Hold(token: token, confirmedAt: confirmedAt)
            }
            if !attempts.isEmpty { state.everHeld = true }
            return (Self.claimHeartbeat(&state), stale)
        }
        stale.forEach { $0() }
        if start { startHeartbeat() }
    }
    /// Forgets the attempt `token` at `key` (settled, released, or lost); a later attempt at
    /// the key stays held.
    func drop(_ key: String, token: Int) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.holds[key]?.token == token else { return [] }
            state.holds.removeValue(forKey: key)
            guard state.holds.isEmpty else { return [] }
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Returns once the worker holds no record.
    func idle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                if state.holds.isEmpty { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Runs `write`, the write that settles the attempt `token` at `key`, and marks the attempt
    /// settled by this worker once it succeeded: its hold is no longer renewed, and nothing makes
    /// it lost any more (the work unwinding from it then answers its own outcome, not a lost
    /// lease).
    ///
    /// While `write` is under way, a renewal that finds the record no longer held (the write may
    /// have committed), or a lease that lapses, neither cancels the work nor makes it lost: the
    /// write is fenced by the attempt's token, so its own answer tells. When it fails, such a
    /// loss counts then.
    package func settling<T>(_ key: String, token: Int, _ write: () async throws -> T) async throws -> T {
        state.withLock { state in
            if state.holds[key]?.token == token { state.holds[key]?.settling = true }
        }
        do {
            let result = try await write()
            state.withLock { state in
                guard state.holds[key]?.token == token else { return }
                state.holds[key]?.settled = true
                state.holds[key]?.settling = false
            }
            return result
        } catch {
            let cancel = state.withLock { state -> (@Sendable () -> Void)? in
                guard var hold = state.holds[key], hold.token == token else { return nil }
                defer { state.holds[key] = hold }
                hold.settling = false
                guard hold.lostWhileSettling, !hold.lost else { return nil }
                hold.lost = true
                return hold.cancel
            }
            cancel?()
            throw error
        }
    }

    /// Whether the attempt `token` at `key` was lost: to another worker, to a later claim by
    /// this one, or because its lease could not be renewed in time; never once this worker
    /// settled it (``settling(_:token:_:)``).
    package func isLost(_ key: String, token: Int) -> Bool {
        state.withLock { state in
            guard let hold = state.holds[key], hold.token == token else { return true }
            return hold.lost && !hold.settled
        }
    }

    /// Marks the attempt this worker holds at `key` lost if its fencing token is below `token`
    /// (the record's token once something took it, as a cancellation does), as a renewal that
    /// found the record taken would, but leaves its work running: its next ``check(_:token:)``
    /// fails, so that it stops before its next step.
    func lose(_ key: String, below token: Int) {
        state.withLock { state in
            guard var hold = state.holds[key], hold.token < token, !hold.settled else { return }
            if hold.settling { hold.lostWhileSettling = true } else { hold.lost = true }
            state.holds[key] = hold
        }
    }

    /// Whether a renewal is under way: sent, its answer not yet taken in.
    var isRenewing: Bool { state.withLock { $0.renewing } }

    /// Runs `work` under the attempt `token` at `key` (adopted before): the work is cancelled
    /// if the lease is lost, and the hold ends with it. A cancellation of the caller is passed on.
    ///
    /// - Throws: what `work` throws, or ``CommandJournalError/leaseLost(key:owner:)`` when the
    ///   lease was lost while it ran.
    package func hold<T: Sendable>(
        _ key: String, token: Int, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let task = Task { try await work() }
        let lostAlready = state.withLock { state -> Bool in
            guard state.holds[key]?.token == token else { return true }
            state.holds[key]?.cancel = { task.cancel() }
            return state.holds[key]?.lost ?? true
        }
        if lostAlready { task.cancel() }
        defer { drop(key, token: token) }
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch {
            if isLost(key, token: token) { throw CommandJournalError.leaseLost(key: key, owner: nil) }
            throw error
        }
    }

    /// Checks, before new work under the attempt `token` at `key` starts (a step, an undo, a
    /// queued command), that the lease is held and valid, on this worker's own monotonic clock,
    /// for at least a third of its duration: a lease confirmed more than a third ago is renewed
    /// first, and a renewal that took so long that less than a third is left does not count.
    /// After a pause (the process stopped, starved or swapped out), the worker finds out here
    /// and stops without acting.
    ///
    /// - Throws: ``CommandJournalError/leaseLost(key:owner:)``.
    package func check(_ key: String, token: Int) async throws {
        let age = state.withLock { state -> Duration? in
            guard let hold = state.holds[key], hold.token == token, !hold.lost else { return nil }
            return clock.now - hold.confirmedAt
        }
        guard let age else { throw CommandJournalError.leaseLost(key: key, owner: nil) }
        if age <= interval { return }
        let sent = clock.now
        let kept = try await renewal.renew([key: token])
        let answered = clock.now
        try state.withLock { state throws(CommandJournalError) in
            guard kept.contains(key), let hold = state.holds[key], hold.token == token, !hold.lost else {
                if state.holds[key]?.token == token { state.holds[key]?.lost = true }
                throw .leaseLost(key: key, owner: nil)
            }
            state.holds[key]?.confirmedAt = max(hold.confirmedAt, sent)
            guard answered - sent <= lease.duration - interval else { throw .leaseLost(key: key, owner: nil) }
        }
    }
}
