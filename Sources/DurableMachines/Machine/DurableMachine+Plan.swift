import BehaviorKitSync
import Commands
import StateMachines

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A step computed, ready to commit.
struct Planned<State: Hashable & Sendable, Event: Hashable & Sendable>: Sendable {
    var commit: MachineCommit
    var step: MachineStep<State, Event>
}

/// What a durable effect's record holds: which effect of which visit, and the context on entry.
struct EffectBody<State: Hashable & Sendable & Codable, Context: Sendable & Codable>: Codable, Sendable {
    var effect: EffectIdentity<State>
    var context: Context
    /// The version of the definition whose effect it is; `nil`: 1 (and in records written before).
    var definitionVersion: Int?
}

extension DurableMachine {
    /// The machine `key` starts as, with `context` in the definition's initial configuration,
    /// and the commit that creates the instance.
    func startPlan(
        _ key: MachineKey, context: Context
    ) throws -> (machine: StateMachine<State, Event, Context>, planned: Planned<State, Event>) {
        let machine = StateMachine(definition, context: context)
        let planned = try plan(
            key: key, record: nil, before: nil, after: machine, trigger: .start, outcome: nil, transitions: [],
            eventID: nil, fired: nil, definitionVersion: definitionVersion)
        return (machine, planned)
    }

    /// The commit that takes the instance from `before` (and `record`) to `after`: the new
    /// snapshot and states, the history row, the timers and effects of the visits that began,
    /// and the deletion of those of the visits that ended (and of the timer that fired).
    func plan(
        key: MachineKey, record: MachineInstanceRecord?, before: StateMachine<State, Event, Context>?,
        beforeSnapshot: MachineSnapshot<State, Context>? = nil,
        after: StateMachine<State, Event, Context>, trigger: MachineTrigger<State, Event>,
        outcome: Outcome<State, Event>?, transitions: [Transition<State, Event>], eventID: String?,
        fired: TimerIdentity<State>?, firedTimerID: String? = nil, definitionVersion: Int
    ) throws -> Planned<State, Event> {
        let now = self.now
        let version = (record?.version ?? 0) + 1
        let snapshot = after.snapshot
        let configuration = after.configuration
        let step = MachineStep(
            sequence: version, eventID: eventID, at: now, trigger: trigger, outcome: outcome,
            transitions: transitions, configuration: configuration)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func encode(_ value: some Encodable) throws -> [UInt8] {
            do {
                return Array(try encoder.encode(value))
            } catch {
                throw DurableMachineError.encodingFailed(key, "\(error)")
            }
        }

        // The active states: a state still in its visit keeps its entry time.
        let visits = snapshot.visits ?? []
        var previousVisits: [State: UInt64] = [:]
        if let beforeSnapshot {
            let states = beforeSnapshot.configuration.isEmpty ? [beforeSnapshot.state] : beforeSnapshot.configuration
            for (state, visit) in zip(states, beforeSnapshot.visits ?? []) { previousVisits[state] = visit }
        }
        var states: [MachineStateEntry] = []
        for (position, state) in (snapshot.configuration.isEmpty ? [snapshot.state] : snapshot.configuration)
            .enumerated()
        {
            let name = "\(state)"
            let visit = position < visits.count ? visits[position] : nil
            let kept =
                visit != nil && previousVisits[state] == visit
                ? record?.states.first(where: { $0.state == name })?.enteredAt : nil
            states.append(MachineStateEntry(key: key.key, state: name, enteredAt: kept ?? now))
        }

        // Timers and effects: those of visits that began are added, those of visits that ended go.
        let timersBefore = Set(before.map { machine in machine.armedTimers.map(machine.identity(of:)) } ?? [])
        var armed: [MachineTimerRecord] = []
        var timersAfter = Set<TimerIdentity<State>>()
        for timer in after.armedTimers {
            let identity = after.identity(of: timer)
            timersAfter.insert(identity)
            guard !timersBefore.contains(identity) else { continue }
            armed.append(
                MachineTimerRecord(
                    key: key, id: identity.description, dueAt: now.adding(timer.delay), body: try encode(identity)))
        }
        // Closures, not key paths: a key path into a generic type is made anew at each call.
        var disarmed = timersBefore.subtracting(timersAfter).map { $0.description }
        // The timer that fired goes, under the id it was stored by (a renamed state's keeps its old one).
        if let id = firedTimerID ?? fired?.description, !disarmed.contains(id) { disarmed.append(id) }

        let effectsBefore = Set(before?.activeEffects ?? [])
        let effectsAfter = after.activeEffects
        var started: [MachineEffectRecord] = []
        for effect in effectsAfter where !effectsBefore.contains(effect) {
            started.append(
                MachineEffectRecord(
                    key: key, id: effect.description,
                    body: try encode(
                        EffectBody(
                            effect: effect, context: after.context,
                            definitionVersion: definitionVersion == 1 ? nil : definitionVersion))))
        }
        let stopped = effectsBefore.subtracting(effectsAfter).map { $0.description }
        var enqueued: [MachineCommand] = []
        if let emit {
            let commands = try emit(step, after.context)
            if !commands.isEmpty && journal == nil { throw DurableMachineError.commandsWithoutJournal(key) }
            // In the step's own commit when the store shares the journal's database; a command
            // that reports back also keeps an outbox record, which watches it end (its relay's
            // enqueue of the same key changes nothing).
            for (index, command) in commands.enumerated() {
                var entry = command.entry
                if entry.idempotencyKey.isEmpty {
                    entry.idempotencyKey = "\(key.machine)/\(key.key)/\(version)/\(index)"
                }
                try entry.checkKeys()
                if commandsInCommit {
                    var keyed = command
                    keyed.entry = entry
                    enqueued.append(keyed)
                    if !command.reportsBack { continue }
                }
                let body = OutboxBody(
                    queue: command.queue, entry: entry, delayMilliseconds: command.delay.journalMilliseconds,
                    reportsBack: command.reportsBack)
                started.append(MachineEffectRecord(key: key, id: "outbox:\(version):\(index)", body: try encode(body)))
            }
        }

        let commit = MachineCommit(
            key: key, expectedVersion: record?.version ?? 0,
            snapshot: try encode(StoredSnapshot(snapshot, definitionVersion: definitionVersion)), states: states,
            step: MachineStepRecord(sequence: version, eventID: eventID, at: now, body: try encode(step)),
            armedTimers: armed, disarmedTimers: disarmed.sorted(), startedEffects: started,
            stoppedEffects: stopped.sorted(), commands: enqueued)
        return Planned(commit: commit, step: step)
    }

    /// A machine of the instance's definition version in its stored configuration, history,
    /// context and visits, the snapshot it was restored from, and that version.
    func restore(
        _ record: MachineInstanceRecord
    ) throws -> (machine: StateMachine<State, Event, Context>, snapshot: MachineSnapshot<State, Context>, version: Int)
    {
        let stored = try decodeSnapshot(record)
        let definition = try definition(version: stored.definitionVersion, of: record.key)
        let machine = try restored(stored.snapshot, of: record.key, on: definition, version: stored.definitionVersion)
        return (machine, stored.snapshot, stored.definitionVersion)
    }

    /// A machine of `definition` (version `version`) restored to `snapshot`.
    func restored(
        _ snapshot: MachineSnapshot<State, Context>, of key: MachineKey,
        on definition: StateMachineDefinition<State, Event, Context>, version: Int
    ) throws -> StateMachine<State, Event, Context> {
        var machine =
            templates.withLock { $0[version] }
            ?? {
                let made = StateMachine(definition, context: snapshot.context)
                templates.withLock { $0[version] = made }
                return made
            }()
        do {
            try machine.restore(snapshot)
        } catch {
            if case .unknownStates(let names) = error { throw DurableMachineError.unknownStates(key, names) }
            throw DurableMachineError.unreadableSnapshot(key, "\(error)")
        }
        return machine
    }

    /// The stored snapshot with its definition version, read (or migrated: then the version
    /// stored beside it, read alone).
    func decodeSnapshot(_ record: MachineInstanceRecord) throws -> StoredSnapshot<State, Context> {
        do {
            return try JSONDecoder().decode(StoredSnapshot<State, Context>.self, from: Data(record.snapshot))
        } catch {
            if let migrate {
                return StoredSnapshot(
                    try migrate(record.snapshot),
                    definitionVersion: StoredSnapshot<State, Context>.version(in: record.snapshot))
            }
            let unknown = unknownStateNames(in: record.snapshot)
            if !unknown.isEmpty { throw DurableMachineError.unknownStates(record.key, unknown) }
            throw DurableMachineError.unreadableSnapshot(record.key, "\(error)")
        }
    }

    /// The state names a stored snapshot holds that do not decode as `State`.
    func unknownStateNames(in bytes: [UInt8]) -> [String] {
        guard let stored = try? JSONDecoder().decode(StoredStateNames.self, from: Data(bytes)) else { return [] }
        var unknown: [String] = []
        for value in stored.all {
            guard let data = try? JSONEncoder().encode([value]),
                (try? JSONDecoder().decode([State].self, from: data)) == nil
            else { continue }
            let name = value.description
            if !unknown.contains(name) { unknown.append(name) }
        }
        return unknown
    }

    /// The instance a record holds.
    func instance(from record: MachineInstanceRecord) throws -> DurableInstance<State, Context> {
        let stored = try decodeSnapshot(record)
        return DurableInstance(
            key: record.key.key, version: record.version, snapshot: stored.snapshot, states: record.states,
            createdAt: record.createdAt, updatedAt: record.updatedAt, definitionVersion: stored.definitionVersion)
    }

    /// A stored step, read (or migrated by `migrateStep`).
    func decodeStep(_ record: MachineStepRecord, key: MachineKey, replay: Bool) throws -> MachineStep<State, Event> {
        var step: MachineStep<State, Event>
        do {
            step = try JSONDecoder().decode(MachineStep<State, Event>.self, from: Data(record.body))
        } catch {
            guard let migrateStep else {
                throw DurableMachineError.unreadableSnapshot(key, "step \(record.sequence): \(error)")
            }
            do {
                step = try migrateStep(record.body)
            } catch {
                throw DurableMachineError.unreadableSnapshot(key, "step \(record.sequence), migrated: \(error)")
            }
        }
        step.isReplay = replay
        return step
    }
}
