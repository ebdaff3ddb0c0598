import BehaviorKitSync

/// The keeper's heartbeat: one task, while the worker holds anything, that renews the holds
/// every third of the lease and cancels the work of those not confirmed in time.
extension LeaseKeeper {
    static func claimHeartbeat(_ state: inout State) -> Bool {
        guard !state.heartbeat, !state.holds.isEmpty else { return false }
        state.heartbeat = true
        return true
    }

    func startHeartbeat() {
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
            let (stale, due, done) = state.withLock { state -> ([@Sendable () -> Void], [String: Int]?, Bool) in
                if state.holds.isEmpty && !state.renewing {
                    state.heartbeat = false
                    return ([], nil, true)
                }
                var stale: [@Sendable () -> Void] = []
                // On a journal whose write stalls cannot cost a lease, a renewal under way
                // answers first: until then, no other worker can have claimed the records.
                let waitForRenewal = state.renewing && renewal.outlastsWriteStalls
                for (key, hold) in state.holds
                where !waitForRenewal && !hold.lost && !hold.settled
                    && now - hold.confirmedAt >= lease.duration - interval
                {
                    if hold.settling {
                        state.holds[key]?.lostWhileSettling = true
                        continue
                    }
                    state.holds[key]?.lost = true
                    if let cancel = hold.cancel { stale.append(cancel) }
                }
                var due: [String: Int]?
                if !state.renewing, state.lastRenewal.map({ now - $0 >= interval }) ?? true {
                    let live = state.holds.filter { !$0.value.lost && !$0.value.settled }.mapValues(\.token)
                    if !live.isEmpty {
                        state.renewing = true
                        state.lastRenewal = now
                        due = live
                    }
                }
                return (stale, due, false)
            }
            stale.forEach { $0() }
            if done { return }
            if let due { Task { await self.renew(due, sent: now) } }
        }
    }

    /// Renews `attempts`: confirms those kept, and cancels the work of those lost.
    private func renew(_ attempts: [String: Int], sent: Duration) async {
        let kept: [String]?
        do {
            kept = try await renewal.renew(attempts)
        } catch {
            kept = nil
            instruments.journalFailed("renewing leases", keys: attempts.keys.sorted(), error: error)
        }
        let lost = state.withLock { state -> [@Sendable () -> Void] in
            state.renewing = false
            guard let kept else { return [] }
            let held = Set(kept)
            var lost: [@Sendable () -> Void] = []
            for (key, token) in attempts {
                guard var hold = state.holds[key], hold.token == token, !hold.lost, !hold.settled else { continue }
                if held.contains(key) {
                    hold.confirmedAt = max(hold.confirmedAt, sent)
                } else if hold.settling {
                    hold.lostWhileSettling = true
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
