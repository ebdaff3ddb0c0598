import BehaviorKitSync

/// Keeps a worker's leases alive: while the worker holds root records, a heartbeat renews
/// their leases every third of the lease; a record whose renewal comes back without it was
/// lost (another worker took it over), and its work is cancelled. A watchdog on the same beat
/// cancels the work of every hold not confirmed for two thirds of the lease — whether the
/// journal is unreachable or only slow — so that the worker stops a third of a lease before
/// another worker may take its records over.
///
/// No task runs while the worker holds nothing.
final class LeaseKeeper: Sendable {
    private struct Hold {
        /// When the lease was last confirmed (the time its claim or renewal was sent).
        var confirmedAt: Duration
        /// Cancels the work running under the hold.
        var cancel: (@Sendable () -> Void)?
        var lost = false
    }

    private struct State {
        var holds: [String: Hold] = [:]
        var heartbeat = false
        var renewing = false
        var lastRenewal: Duration?
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedValue(State())
    let journal: any CommandJournal
    let lease: JournalLease
    let clock: ElapsedClock
    let instruments: DurableInstruments

    init(journal: any CommandJournal, lease: JournalLease, clock: ElapsedClock, instruments: DurableInstruments) {
        self.journal = journal
        self.lease = lease
        self.clock = clock
        self.instruments = instruments
    }

    /// How often the heartbeat renews.
    var interval: Duration { lease.duration / 3 }

    /// The time now, on the keeper's clock: pass it as `confirmedAt` for a claim sent now.
    var now: Duration { clock.now }

    /// Registers `keys`, claimed by a request sent at `confirmedAt`, as held.
    func adopt(_ keys: [String], confirmedAt: Duration) {
        let start = state.withLock { state -> Bool in
            for key in keys { state.holds[key] = Hold(confirmedAt: confirmedAt) }
            return Self.claimHeartbeat(&state)
        }
        if start { startHeartbeat() }
    }

    /// Forgets `key` (settled, released, or lost).
    func drop(_ key: String) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
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

    /// Whether `key` was lost to another worker (or could not be renewed in time).
    func isLost(_ key: String) -> Bool {
        state.withLock { $0.holds[key]?.lost ?? true }
    }

    /// Runs `work` under the hold of `key` (adopted before): the work is cancelled if the
    /// lease is lost, and the hold ends with it. A cancellation of the caller is passed on.
    ///
    /// - Throws: what `work` throws, or ``CommandJournalError/leaseLost(key:owner:)`` when the
    ///   lease was lost while it ran.
    func hold<T: Sendable>(_ key: String, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await work() }
        let lostAlready = state.withLock { state -> Bool in
            state.holds[key]?.cancel = { task.cancel() }
            return state.holds[key]?.lost ?? true
        }
        if lostAlready { task.cancel() }
        defer { drop(key) }
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch {
            if isLost(key) { throw CommandJournalError.leaseLost(key: key, owner: nil) }
            throw error
        }
    }

    /// Checks, before new work under `key` starts, that the lease is held and fresh: a lease
    /// confirmed more than two thirds of its duration ago is renewed first.
    ///
    /// - Throws: ``CommandJournalError/leaseLost(key:owner:)``.
    func check(_ key: String) async throws {
        let age = state.withLock { state -> Duration? in
            guard let hold = state.holds[key], !hold.lost else { return nil }
            return clock.now - hold.confirmedAt
        }
        guard let age else { throw CommandJournalError.leaseLost(key: key, owner: nil) }
        if age <= interval { return }
        let sent = clock.now
        let kept = try await journal.renew([key], lease: lease)
        try state.withLock { state throws(CommandJournalError) in
            guard kept.contains(key), state.holds[key] != nil else {
                state.holds[key]?.lost = true
                throw .leaseLost(key: key, owner: nil)
            }
            state.holds[key]?.confirmedAt = sent
        }
    }

    private static func claimHeartbeat(_ state: inout State) -> Bool {
        guard !state.heartbeat, !state.holds.isEmpty else { return false }
        state.heartbeat = true
        return true
    }

    private func startHeartbeat() {
        Task { await self.beat() }
    }

    /// Every half interval: cancels the holds not confirmed for two thirds of the lease, and
    /// starts a renewal of the others once an interval passed since the last one began (a slow
    /// renewal never holds the watchdog up).
    private func beat() async {
        while true {
            do {
                try await clock.sleep(for: interval / 2)
            } catch {
                state.withLock { $0.heartbeat = false }
                return
            }
            let now = clock.now
            let (stale, renewal, done) = state.withLock { state -> ([@Sendable () -> Void], [String]?, Bool) in
                if state.holds.isEmpty && !state.renewing {
                    state.heartbeat = false
                    return ([], nil, true)
                }
                var stale: [@Sendable () -> Void] = []
                for (key, hold) in state.holds where !hold.lost && now - hold.confirmedAt >= lease.duration - interval {
                    state.holds[key]?.lost = true
                    if let cancel = hold.cancel { stale.append(cancel) }
                }
                var renewal: [String]?
                if !state.renewing, state.lastRenewal.map({ now - $0 >= interval }) ?? true {
                    let live = state.holds.filter { !$0.value.lost }.map(\.key)
                    if !live.isEmpty {
                        state.renewing = true
                        state.lastRenewal = now
                        renewal = live
                    }
                }
                return (stale, renewal, false)
            }
            stale.forEach { $0() }
            if done { return }
            if let renewal { Task { await self.renew(renewal, sent: now) } }
        }
    }

    /// Renews `keys`: confirms those kept, and cancels the work of those lost.
    private func renew(_ keys: [String], sent: Duration) async {
        let kept: [String]?
        do {
            kept = try await journal.renew(keys, lease: lease)
        } catch {
            kept = nil
            instruments.journalFailed("renewing leases", keys: keys, error: error)
        }
        let lost = state.withLock { state -> [@Sendable () -> Void] in
            state.renewing = false
            guard let kept else { return [] }
            let held = Set(kept)
            var lost: [@Sendable () -> Void] = []
            for key in keys {
                guard var hold = state.holds[key], !hold.lost else { continue }
                if held.contains(key) {
                    hold.confirmedAt = max(hold.confirmedAt, sent)
                } else {
                    hold.lost = true
                    if let cancel = hold.cancel { lost.append(cancel) }
                }
                state.holds[key] = hold
            }
            return lost
        }
        lost.forEach { $0() }
    }
}
