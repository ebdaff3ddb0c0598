import BehaviorKitSync
import Commands
import Logging
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
    ///
    /// One timer never stops the others. A timer of a state the definition no longer has (a
    /// rename) fires as the timer the `migrate` hook's snapshot arms for the same visit; one that
    /// cannot be read or fired at all (its state removed, its instance unreadable) is set aside
    /// by this process with a logged warning and the metric
    /// `behaviorkit_machine_timers_set_aside_total`, and the other timers fire.
    @discardableResult
    public func fireDueTimers(limit: Int = 100) async throws -> [MachineStep<State, Event>] {
        let now = self.now
        let setAside = timersSetAside.withLock { $0 }
        var steps: [MachineStep<State, Event>] = []
        var fired = 0
        let due = try await store.dueTimers(machine: name, dueBy: now, limit: limit.saturatingAdd(setAside.count))
        for record in due where fired < limit && !setAside.contains(TimerReference(record)) {
            fired += 1
            do {
                if let step = try await fire(record, now: now), !step.isReplay { steps.append(step) }
            } catch let error as DurableMachineError {
                switch error {
                case .unknownStates, .unreadableSnapshot, .unknownDefinitionVersion:
                    timersSetAside.withLock { _ = $0.insert(TimerReference(record)) }
                    instruments.metrics?.increment("behaviorkit_machine_timers_set_aside_total", [("machine", name)])
                    instruments.logger?.warning(
                        "a timer that cannot fire is set aside; the others fire",
                        metadata: [
                            "machine": "\(name)", "key": "\(record.key.key)", "timer": "\(record.id)",
                            "reason": "\(error)",
                        ])
                default: throw error
                }
            }
        }
        return steps
    }

    /// Fires one due timer: its step, `nil` when its visit ended.
    private func fire(_ record: MachineTimerRecord, now: Date) async throws -> MachineStep<State, Event>? {
        let identity = try await timerIdentity(record)
        var trigger = MachineTrigger<State, Event>.timer(identity)
        if case .skip(let tolerance) = missedTimers, record.dueAt.adding(tolerance) < now {
            trigger = .missedTimer(identity)
        }
        instruments.metrics?.record(
            "behaviorkit_machine_timer_lag_seconds", [("machine", name)],
            .milliseconds(max(0, now.journalMilliseconds - record.dueAt.journalMilliseconds)))
        // The timer's id names its visit: the step is applied once, by whichever worker commits first.
        return try await apply(trigger, to: record.key, eventID: "timer:\(record.id)", firedTimerID: record.id)
    }

    /// The identity a stored timer names; for a state the definition no longer has, the timer
    /// the instance's migrated snapshot arms for the same visit and index.
    private func timerIdentity(_ record: MachineTimerRecord) async throws -> TimerIdentity<State> {
        do {
            return try JSONDecoder().decode(TimerIdentity<State>.self, from: Data(record.body))
        } catch {
            let reason = "timer \(record.id): \(error)"
            guard migrate != nil,
                let stored = try? JSONDecoder().decode(StoredTimerIdentity.self, from: Data(record.body)),
                let instance = try await store.instance(record.key)
            else { throw DurableMachineError.unreadableSnapshot(record.key, reason) }
            let (machine, _, _) = try restore(instance)
            let armed = machine.armedTimers.map(machine.identity(of:))
            guard let renamed = armed.first(where: { $0.index == stored.index && $0.visit == stored.visit }) else {
                throw DurableMachineError.unreadableSnapshot(
                    record.key, reason + " (no timer of its visit is armed now)")
            }
            return renamed
        }
    }

    /// Sets the gauge `behaviorkit_machine_keys` of each state to how many instances have it
    /// active (with a metrics backend; ``runTimersAndEffects(owner:pollInterval:leaseDuration:maxRunningEffects:clock:)``
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
