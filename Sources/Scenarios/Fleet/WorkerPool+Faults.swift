import BehaviorKitSync

extension WorkerPool {
    /// The next worker fault of a fleet run, drawn from `random`: a random worker of the
    /// `processes` paused with SIGSTOP for one to five leases (half the time, when they are to
    /// be paused), or killed with SIGKILL and started again; then every worker that exited on
    /// its own is started again.
    func strike(_ random: inout SplitMix64, by processes: FleetProcesses) async throws {
        let slot = Int(random.next() % UInt64(processes.workers))
        if processes.pauses && random.next() % 2 == 0 {
            pause(slot, for: processes.lease * Int(1 + random.next() % 5))
        } else {
            try await killAndRestart(slot)
        }
        try reviveExited()
    }
}

extension Console {
    /// Prints the first twenty `violations` of a fleet run, and how many more there are.
    func print(violations: [String]) {
        for violation in violations.prefix(20) { print("violation: \(violation)") }
        if violations.count > 20 { print("violation: … \(violations.count - 20) more") }
    }
}
