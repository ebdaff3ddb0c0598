import Commands
import DurableMachines
import StateMachines

/// What a machine fleet run did and found.
public struct MachineFleetReport: Sendable, CustomStringConvertible {
    /// Keys started.
    public var keys = 0
    /// Distinct event ids acknowledged to a sender.
    public var acknowledged = 0
    /// Steps in the histories.
    public var steps = 0
    /// Refused events (recorded outcomes).
    public var refusals = 0
    /// Timer steps.
    public var timersFired = 0
    /// Events delivered from effects.
    public var effectEvents = 0
    /// Commands the deliveries emitted, found in the journal and run.
    public var deliveryCommands = 0
    /// Workers killed, paused, and started again after exiting on their own.
    public var kills = 0
    public var pauses = 0
    public var revived = 0
    /// Keys by final state.
    public var finalStates: [String: Int] = [:]

    /// One line of counts.
    public var description: String {
        "\(keys) keys, \(acknowledged) events acknowledged, \(steps) steps (\(refusals) refusals, \(timersFired) timers, "
            + "\(effectEvents) effect events), \(deliveryCommands) delivery commands run, \(kills) kills, \(pauses) pauses, \(revived) revived; final "
            + finalStates.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}

extension MachineFleet {
    /// Checks every key's history against the definition, replayed from the start: each step is
    /// a transition the definition allows from the configuration before it, each timer fires for
    /// a visit still current (so at most once, never into a later visit), each effect event
    /// reaches the visit that started it, the versions have no gap, every acknowledged event is
    /// in its key's history once, and nothing is left armed.
    static func check(
        _ parcels: DurableMachine<ParcelState, ParcelEvent, Parcel>, keys: Int, acknowledged: Set<String>
    ) async throws -> (MachineFleetReport, [String]) {
        var report = MachineFleetReport()
        var violations: [String] = []
        report.acknowledged = acknowledged.count
        var recorded = Set<String>()
        for number in 0..<keys {
            let key = ParcelLifecycle.key(number)
            guard let instance = try await parcels.instance(key) else {
                violations.append("\(key): never started")
                continue
            }
            report.keys += 1
            let history = try await parcels.history(of: key, limit: 100_000)
            report.steps += history.count
            if history.map(\.sequence) != Array(1...max(1, instance.version)) || history.count != Int(instance.version)
            {
                violations.append("\(key): versions \(history.map(\.sequence)) for version \(instance.version)")
                continue
            }
            var machine = StateMachine(ParcelLifecycle.definition, context: Parcel())
            for step in history {
                if let id = step.eventID, !id.hasPrefix("timer:"), !id.hasPrefix("effect:") {
                    if !recorded.insert(id).inserted { violations.append("\(key): event \(id) applied twice") }
                }
                if let problem = replay(step, on: &machine, report: &report) {
                    violations.append("\(key) step \(step.sequence): \(problem)")
                    break
                }
            }
            if machine.context != instance.context {
                violations.append(
                    "\(key): the stored context \(instance.context) is not the replayed \(machine.context)")
            }
            if !instance.state.isFinal { violations.append("\(key): ended in \(instance.state)") }
            report.finalStates["\(instance.state)", default: 0] += 1
        }
        for id in acknowledged.subtracting(recorded).sorted().prefix(20) {
            violations.append("acknowledged event \(id) is in no history")
        }
        if let due = try await parcels.nextTimerDue() { violations.append("a timer is still armed, due \(due)") }
        return (report, violations)
    }

    /// Applies a recorded step to the replayed machine; what is wrong with it, or `nil`.
    private static func replay(
        _ step: MachineStep<ParcelState, ParcelEvent>, on machine: inout StateMachine<ParcelState, ParcelEvent, Parcel>,
        report: inout MachineFleetReport
    ) -> String? {
        switch step.trigger {
        case .start:
            guard step.sequence == 1 else { return "a second start" }
        case .event(let event):
            let outcome = machine.send(event)
            if outcome != step.outcome {
                return "\(event) gave \(outcome) on replay, \(String(describing: step.outcome)) recorded"
            }
            if outcome.refusal != nil { report.refusals += 1 }
        case .timer(let identity):
            guard let timer = machine.armedTimer(identity) else {
                return "timer \(identity) fired, but its visit was over (configuration \(machine.configuration))"
            }
            machine.fire(timer)
            report.timersFired += 1
        case .missedTimer(let identity):
            return "timer \(identity) was skipped under the fire policy"
        case .effect(let identity, let event):
            guard machine.isCurrent(identity) else {
                return
                    "effect \(identity) delivered \(event) after its visit ended (configuration \(machine.configuration))"
            }
            let outcome = machine.send(event)
            if outcome != step.outcome { return "effect event \(event) gave \(outcome) on replay" }
            report.effectEvents += 1
        case .upgrade(let from, let to):
            return "an upgrade from version \(from) to \(to), which the fleet never asks for"
        }
        if machine.configuration != step.configuration {
            return "replay is in \(machine.configuration), \(step.configuration) recorded"
        }
        return nil
    }
}

extension MachineFleet {
    /// Checks the commands the deliveries emitted: each delivered parcel has exactly one, under
    /// the key of the step that delivered it, and it ran (settled done); no other parcel has any.
    static func checkDeliveries(
        _ parcels: DurableMachine<ParcelState, ParcelEvent, Parcel>, journal: any CommandJournal, keys: Int
    ) async throws -> (ran: Int, violations: [String]) {
        var violations: [String] = []
        var expected = Set<String>()
        for number in 0..<keys {
            let key = ParcelLifecycle.key(number)
            guard try await parcels.instance(key)?.state == .delivered else { continue }
            let history = try await parcels.history(of: key, limit: 100_000)
            let delivering = history.filter { $0.transitions.contains { $0.target == .delivered } }
            guard delivering.count == 1, let step = delivering.first else {
                violations.append("\(key): \(delivering.count) steps delivered it")
                continue
            }
            expected.insert("\(ParcelLifecycle.name)/\(key)/\(step.sequence)/0")
        }
        let records = try await journal.allRecords()
        let found = Set(records.map(\.entry.idempotencyKey))
        for key in expected.subtracting(found).sorted().prefix(10) {
            violations.append("delivery command \(key) is not in the journal")
        }
        for key in found.subtracting(expected).sorted().prefix(10) {
            violations.append("the journal holds \(key), which no delivery emitted")
        }
        for record in records where record.status != .done {
            violations.append("delivery command \(record.entry.idempotencyKey) is \(record.status)")
        }
        return (records.filter { $0.status == .done }.count, violations)
    }
}
