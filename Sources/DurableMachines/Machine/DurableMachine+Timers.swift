import Commands
import Metrics
import StateMachines

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension DurableMachine {
    /// Fires up to `limit` timers that are due, earliest first, each at most once whichever
    /// workers run this at the same time; returns the steps committed (a timer whose guard does
    /// not hold commits a step with no transition, and is gone).
    ///
    /// A timer found later than ``missedTimers`` allows is dropped, with a
    /// ``MachineTrigger/missedTimer(_:)`` step.
    @discardableResult
    public func fireDueTimers(limit: Int = 100) async throws -> [MachineStep<State, Event>] {
        let now = self.now
        var steps: [MachineStep<State, Event>] = []
        for record in try await store.dueTimers(machine: name, dueBy: now, limit: limit) {
            let identity: TimerIdentity<State>
            do {
                identity = try JSONDecoder().decode(TimerIdentity<State>.self, from: Data(record.body))
            } catch {
                throw DurableMachineError.unreadableSnapshot(record.key, "timer \(record.id): \(error)")
            }
            var trigger = MachineTrigger<State, Event>.timer(identity)
            if case .skip(let tolerance) = missedTimers, record.dueAt.adding(tolerance) < now {
                trigger = .missedTimer(identity)
            }
            instruments.metrics?.record(
                "behaviorkit_machine_timer_lag_seconds", [("machine", name)],
                .milliseconds(max(0, now.journalMilliseconds - record.dueAt.journalMilliseconds)))
            // The timer's id names its visit: the step is applied once, by whichever worker commits first.
            if let step = try await apply(trigger, to: record.key, eventID: "timer:\(record.id)"), !step.isReplay {
                steps.append(step)
            }
        }
        return steps
    }

    /// Sets the gauge `behaviorkit_machine_keys` of each state to how many instances have it
    /// active (with a metrics backend; ``runTimersAndEffects(owner:pollInterval:leaseDuration:clock:)``
    /// calls it every 10 s); returns the counts.
    @discardableResult
    public func recordKeysPerState() async throws -> [String: Int] {
        let counts = try await store.countsByState(machine: name)
        if let metrics = instruments.metrics {
            for state in definition.states.map({ "\($0)" }) {
                metrics.gauge("behaviorkit_machine_keys", [("machine", name), ("state", state)]).record(
                    counts[state] ?? 0)
            }
        }
        return counts
    }

    /// When the earliest armed timer is due, or `nil` when none is.
    public func nextTimerDue() async throws -> Date? {
        try await store.nextTimerDue(machine: name)
    }
}
