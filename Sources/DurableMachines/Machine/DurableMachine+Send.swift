import BehaviorKitSync
import Commands
import Metrics
import StateMachines
import Tracing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DurableMachine {
    /// Starts the instance `key` in the definition's initial configuration with `context` (its
    /// entry actions run, its timers are armed, its effects start); a key that exists is left as
    /// it stands.
    ///
    /// - Returns: the instance as it stands after the call (started now, or before).
    @discardableResult
    public func start(_ key: String, context: Context) async throws -> DurableInstance<State, Context> {
        let machineKey = try machineKey(key)
        for _ in 0..<2 {
            if let existing = try await store.instance(machineKey) { return try instance(from: existing) }
            let (machine, planned) = try startPlan(machineKey, context: context)
            if case .committed = try await store.commit(planned.commit) {
                commits.signal()
                return DurableInstance(
                    key: key, version: 1, snapshot: machine.snapshot, states: planned.commit.states,
                    createdAt: planned.step.at, updatedAt: planned.step.at, definitionVersion: definitionVersion)
            }
        }
        guard let existing = try await store.instance(machineKey) else {
            throw DurableMachineError.notStarted(machineKey)
        }
        return try instance(from: existing)
    }

    /// Sends `event` to the instance `key`, in any process: computed from its latest version and
    /// committed with everything it changes, one event at a time per key.
    ///
    /// With an `id`, the event is applied at most once: sending it again (a retried request)
    /// answers the step recorded the first time, with ``MachineStep/isReplay`` set.
    ///
    /// - Returns: the committed step: its outcome (a transition, or a refusal, which is recorded
    ///   too), every transition taken and the configuration after it.
    /// - Throws: ``DurableMachineError/notStarted(_:)`` for a key never started (nothing is
    ///   created); ``DurableMachineError/contention(_:attempts:)``; the store's errors.
    @discardableResult
    public func send(_ event: Event, to key: String, id: String? = nil) async throws -> MachineStep<State, Event> {
        let machineKey = try machineKey(key)
        let id = try callerEventID(id)
        guard instruments.isOn else {
            guard let step = try await apply(.event(event), to: machineKey, eventID: id) else {
                throw DurableMachineError.notStarted(machineKey)
            }
            return step
        }
        let started = ContinuousClock.now
        let attributes: SpanAttributes = [
            "behaviorkit.machine": .string(name), "behaviorkit.key": .string(key),
            "behaviorkit.event": .string("\(event)"),
        ]
        return try await instruments.withSpan("behaviorkit.machine.send", attributes) { span in
            guard let step = try await apply(.event(event), to: machineKey, eventID: id) else {
                throw DurableMachineError.notStarted(machineKey)
            }
            span?.attributes["behaviorkit.outcome"] = step.isRefusal ? "refused" : "applied"
            instruments.metrics?.record(
                "behaviorkit_machine_event_duration_seconds", [("machine", name)], ContinuousClock.now - started)
            return step
        }
    }

    /// Computes the step `trigger` makes on `key` and commits it, again while another writer
    /// commits first. `nil` when the trigger no longer applies (a timer or effect of a visit
    /// that ended).
    func apply(
        _ trigger: MachineTrigger<State, Event>, to key: MachineKey, eventID: String?, firedTimerID: String? = nil
    ) async throws -> MachineStep<State, Event>? {
        let attempts = 1_000
        for attempt in 0..<attempts {
            let update = try await store.update(key) { record in
                guard let record else { throw DurableMachineError.notStarted(key) }
                return try self.step(trigger, on: record, eventID: eventID, firedTimerID: firedTimerID).map {
                    ($0.commit, $0.step)
                }
            }
            switch update {
            case .committed(let step):
                commits.signal()
                if let metrics = instruments.metrics { count(step, metrics) }
                return step
            case .skipped: return nil
            case .duplicateEvent(let recorded):
                // The instance is read only for a recorded step the definition cannot read.
                if let step = try? decodeStep(recorded, key: key, replay: true) { return step }
                return try replay(recorded, of: trigger, key: key, instance: try await store.instance(key))
            case .versionConflict:
                try await lostRace(attempt, key: key, eventID: eventID)
            }
        }
        throw DurableMachineError.contention(key, attempts: attempts)
    }

    /// After the race `attempt` for `key` was lost to another writer: counted, and with many
    /// senders on one key, after two lost races, a jittered, growing wait (at most 20 ms), so
    /// that the writers spread out instead of racing in step.
    func lostRace(_ attempt: Int, key: MachineKey, eventID: String?) async throws {
        instruments.metrics?.increment("behaviorkit_machine_conflicts_total", [("machine", name)])
        if attempt < 2 {
            await Task.yield()
        } else {
            try await Task.sleep(for: ConflictBackoff.delay(after: attempt, key: key, eventID: eventID))
        }
    }

    /// Counts a committed step by its trigger and outcome.
    private func count(_ step: MachineStep<State, Event>, _ metrics: MetricCache) {
        let trigger =
            switch step.trigger {
            case .start: "start"
            case .event: "event"
            case .timer: "timer"
            case .missedTimer: "missed_timer"
            case .effect: "effect"
            case .upgrade: "upgrade"
            }
        let outcome = step.isRefusal ? "refused" : step.transitions.isEmpty ? "unchanged" : "transitioned"
        metrics.increment(
            "behaviorkit_machine_steps_total", [("machine", name), ("trigger", trigger), ("outcome", outcome)])
    }

    /// The step `trigger` makes on the instance `record` holds, planned as a commit.
    func step(
        _ trigger: MachineTrigger<State, Event>, on record: MachineInstanceRecord, eventID: String?,
        firedTimerID: String? = nil
    ) throws -> Planned<State, Event>? {
        let (before, beforeSnapshot, version) = try restore(record)
        var machine = before
        var transitions: [Transition<State, Event>] = []
        var outcome: Outcome<State, Event>?
        var fired: TimerIdentity<State>?
        switch trigger {
        case .start, .upgrade: return nil
        case .event(let event):
            outcome = machine.send(event) { transitions.append($0) }
        case .timer(let identity):
            fired = identity
            guard let timer = machine.armedTimer(identity) else { return nil }
            machine.fire(timer) { transitions.append($0) }
        case .missedTimer(let identity):
            fired = identity
            guard machine.armedTimer(identity) != nil else { return nil }
        case .effect(let identity, let event):
            guard machine.isCurrent(identity) else { return nil }
            outcome = machine.send(event) { transitions.append($0) }
        }
        return try plan(
            key: record.key, record: record, before: before, beforeSnapshot: beforeSnapshot, after: machine,
            trigger: trigger, outcome: outcome,
            transitions: transitions, eventID: eventID, fired: fired, firedTimerID: firedTimerID,
            definitionVersion: version)
    }
}
