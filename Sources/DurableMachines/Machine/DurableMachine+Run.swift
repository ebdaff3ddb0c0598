import Commands
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DurableMachine {
    /// Fires due timers and runs unheld effects until the task is cancelled, looking again every
    /// `pollInterval` on `clock` (and at once while there was work). Run it in one task per
    /// process; any number of processes may run it on one store. An error of the store (a
    /// database that restarts) is logged and waited out: the loop looks again after
    /// `pollInterval`. Every 10 s it records the keys per state (``recordKeysPerState()``).
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
        var gauged = clock.now
        while !Task.isCancelled {
            var fired: [MachineStep<State, Event>] = []
            var ran = 0
            do {
                fired = try await fireDueTimers()
                ran = try await runEffects(owner: owner, leaseDuration: leaseDuration)
                if instruments.metrics != nil, gauged.duration(to: clock.now) >= .seconds(10) {
                    gauged = clock.now
                    try await recordKeysPerState()
                }
            } catch {
                if Task.isCancelled { return }
                instruments.logger?.warning(
                    "timers and effects wait out an error", metadata: ["machine": "\(name)", "error": "\(error)"])
            }
            if fired.isEmpty && ran == 0 {
                do {
                    try await clock.sleep(for: pollInterval)
                } catch {
                    return
                }
            }
        }
    }
}
