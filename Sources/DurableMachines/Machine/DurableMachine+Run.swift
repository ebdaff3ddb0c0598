#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DurableMachine {
    /// Fires due timers and runs unheld effects until the task is cancelled, looking again every
    /// `pollInterval` on `clock` (and at once while there was work). Run it in one task per
    /// process; any number of processes may run it on one store.
    ///
    /// - Parameters:
    ///   - owner: this worker's name in effect leases (unique per process).
    ///   - pollInterval: how long to wait when there was nothing to do.
    ///   - leaseDuration: how long an effect's lease lasts without renewal.
    ///   - clock: the clock the waits are measured on.
    public func runTimersAndEffects(
        owner: String, pollInterval: Duration = .milliseconds(100), leaseDuration: Duration = .seconds(30),
        clock: some Clock<Duration> = ContinuousClock()
    ) async throws {
        while !Task.isCancelled {
            let fired = try await fireDueTimers()
            let ran = try await runEffectsInBackground(owner: owner, leaseDuration: leaseDuration)
            if fired.isEmpty && ran == 0 {
                do {
                    try await clock.sleep(for: pollInterval)
                } catch {
                    return
                }
            }
        }
    }

    /// Runs the claimable effects; how many were claimed.
    private func runEffectsInBackground(owner: String, leaseDuration: Duration) async throws -> Int {
        try await runEffects(owner: owner, leaseDuration: leaseDuration)
    }
}
