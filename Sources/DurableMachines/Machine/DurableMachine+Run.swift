import BehaviorKitSync
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
    /// Effects run beside the loop, up to `maxRunningEffects` at once, each in a child task of
    /// it: a slow effect (an HTTP call that takes a minute) holds up no timer and no other
    /// effect. Cancelling the loop cancels the effects it runs (their leases lapse, and a worker
    /// takes them over).
    ///
    /// - Parameters:
    ///   - owner: this worker's name in effect leases (unique per process).
    ///   - pollInterval: how long to wait when there was nothing to do.
    ///   - leaseDuration: how long an effect's lease lasts without renewal.
    ///   - maxRunningEffects: the most effects this worker runs at once.
    ///   - clock: the clock the waits are measured on.
    public func runTimersAndEffects(
        owner: String, pollInterval: Duration = .milliseconds(100), leaseDuration: Duration = .seconds(30),
        maxRunningEffects: Int = 16, clock: some Clock<Duration> = ContinuousClock()
    ) async throws {
        let keeper = effectKeeper(owner: owner, leaseDuration: leaseDuration, clock: clock)
        let running = LockedValue(0)
        let capacity = max(1, maxRunningEffects)
        await withDiscardingTaskGroup { group in
            var gauged = clock.now
            while !Task.isCancelled {
                var worked = false
                do {
                    worked = try await !fireDueTimers().isEmpty
                    let free = capacity - running.withLock { $0 }
                    if free > 0 {
                        let claimed = try await claimEffects(keeper, limit: free)
                        for record in claimed {
                            running.withLock { $0 += 1 }
                            group.addTask {
                                defer { running.withLock { $0 -= 1 } }
                                await self.runLogged(record, keeper: keeper)
                            }
                        }
                        worked = worked || !claimed.isEmpty
                    }
                    if instruments.metrics != nil, gauged.duration(to: clock.now) >= .seconds(10) {
                        gauged = clock.now
                        try await recordKeysPerState()
                    }
                } catch {
                    if Task.isCancelled { break }
                    instruments.logger?.warning(
                        "timers and effects wait out an error", metadata: ["machine": "\(name)", "error": "\(error)"])
                }
                if !worked {
                    do {
                        try await clock.sleep(for: pollInterval)
                    } catch {
                        break
                    }
                }
            }
            group.cancelAll()
        }
    }

    /// Runs one claimed effect, logging the error that ends it (its lease lapses; a worker takes
    /// it over).
    func runLogged(_ record: MachineEffectRecord, keeper: LeaseKeeper) async {
        do {
            _ = try await run(record, keeper: keeper)
        } catch {
            if Task.isCancelled { return }
            instruments.logger?.warning(
                "an effect stopped on an error; its lease will lapse",
                metadata: [
                    "machine": "\(name)", "key": "\(record.key.key)", "effect": "\(record.id)", "error": "\(error)",
                ])
        }
    }
}
