import BehaviorKitSync

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A ``MachineStore`` in memory: for tests, and for one process that needs the bookkeeping but
/// not its survival (a crash loses it).
///
/// ```swift
/// let orders = DurableMachine("order", definition: orderLifecycle, store: InMemoryMachineStore())
/// ```
public final class InMemoryMachineStore: MachineStore {
    struct Instance {
        var record: MachineInstanceRecord
        var steps: [MachineStepRecord] = []
        var stepsByEvent: [String: Int64] = [:]
        var timers: [String: MachineTimerRecord] = [:]
        var effects: [String: MachineEffectRecord] = [:]
    }

    let instances = LockedValue([MachineKey: Instance]())

    /// Creates an empty store.
    public init() {}

    /// See ``MachineStore/instance(_:)``.
    public func instance(_ key: MachineKey) async throws -> MachineInstanceRecord? {
        instances.withLock { $0[key]?.record }
    }

    /// See ``MachineStore/step(_:eventID:)``.
    public func step(_ key: MachineKey, eventID: String) async throws -> MachineStepRecord? {
        instances.withLock { instances in
            guard let instance = instances[key], let sequence = instance.stepsByEvent[eventID] else { return nil }
            return instance.steps.first { $0.sequence == sequence }
        }
    }

    /// See ``MachineStore/update(_:_:)``: the plan runs under the store's lock.
    public func update<Planned: Sendable>(
        _ key: MachineKey, _ plan: @escaping @Sendable (MachineInstanceRecord?) throws -> (MachineCommit, Planned)?
    ) async throws -> MachineUpdate<Planned> {
        try instances.withLock { instances throws -> MachineUpdate<Planned> in
            guard let (commit, planned) = try plan(instances[key]?.record) else { return .skipped }
            switch Self.commit(commit, &instances) {
            case .committed: return .committed(planned)
            case .versionConflict(let current): return .versionConflict(current: current)
            case .duplicateEvent(let recorded): return .duplicateEvent(recorded)
            }
        }
    }

    /// See ``MachineStore/commit(_:)``.
    public func commit(_ commit: MachineCommit) async throws -> MachineCommitResult {
        instances.withLock { Self.commit(commit, &$0) }
    }

    /// Commits `commit` into `instances`, or says why not.
    private static func commit(
        _ commit: MachineCommit, _ instances: inout [MachineKey: Instance]
    ) -> MachineCommitResult {
        let existing = instances[commit.key]
        if let eventID = commit.step.eventID, let existing, let sequence = existing.stepsByEvent[eventID],
            let step = existing.steps.first(where: { $0.sequence == sequence })
        {
            return .duplicateEvent(step)
        }
        guard (existing?.record.version ?? 0) == commit.expectedVersion else {
            return .versionConflict(current: existing?.record.version)
        }
        var instance =
            existing
            ?? Instance(
                record: MachineInstanceRecord(
                    key: commit.key, version: 0, snapshot: [], states: [], createdAt: commit.step.at,
                    updatedAt: commit.step.at))
        instance.record.version = commit.version
        instance.record.snapshot = commit.snapshot
        instance.record.states = commit.states
        instance.record.updatedAt = commit.step.at
        instance.steps.append(commit.step)
        if let eventID = commit.step.eventID { instance.stepsByEvent[eventID] = commit.version }
        for id in commit.disarmedTimers { instance.timers[id] = nil }
        for timer in commit.armedTimers { instance.timers[timer.id] = timer }
        for id in commit.stoppedEffects { instance.effects[id] = nil }
        for effect in commit.startedEffects { instance.effects[effect.id] = effect }
        instances[commit.key] = instance
        return .committed
    }

    /// See ``MachineStore/dueTimers(machine:dueBy:limit:)``.
    public func dueTimers(machine: String, dueBy date: Date, limit: Int) async throws -> [MachineTimerRecord] {
        let due = instances.withLock { instances in
            instances.values.lazy.filter { $0.record.key.machine == machine }
                .flatMap { $0.timers.values.filter { $0.dueAt <= date } }
        }
        return Array(due.sorted { ($0.dueAt, $0.key.key, $0.id) < ($1.dueAt, $1.key.key, $1.id) }.prefix(max(0, limit)))
    }

    /// See ``MachineStore/nextTimerDue(machine:)``.
    public func nextTimerDue(machine: String) async throws -> Date? {
        instances.withLock { instances in
            instances.values.filter { $0.record.key.machine == machine }.flatMap { $0.timers.values.map(\.dueAt) }.min()
        }
    }

    /// See ``MachineStore/claimEffects(machine:owner:now:leaseExpiresAt:limit:)``.
    public func claimEffects(
        machine: String, owner: String, now: Date, leaseExpiresAt: Date, limit: Int
    ) async throws -> [MachineEffectRecord] {
        instances.withLock { instances in
            var claimed: [MachineEffectRecord] = []
            for key in instances.keys.sorted(by: { $0.key < $1.key }) where key.machine == machine {
                guard var instance = instances[key] else { continue }
                for id in instance.effects.keys.sorted() {
                    guard claimed.count < limit, var effect = instance.effects[id] else { break }
                    if let expiry = effect.leaseExpiresAt, expiry > now { continue }
                    effect.owner = owner
                    effect.leaseExpiresAt = leaseExpiresAt
                    effect.attempts += 1
                    instance.effects[id] = effect
                    claimed.append(effect)
                }
                instances[key] = instance
                if claimed.count >= limit { break }
            }
            return claimed
        }
    }

    /// See ``MachineStore/renewEffect(_:id:owner:attempts:leaseExpiresAt:)``.
    public func renewEffect(
        _ key: MachineKey, id: String, owner: String, attempts: Int, leaseExpiresAt: Date
    ) async throws -> Bool {
        instances.withLock { instances in
            guard let effect = instances[key]?.effects[id], effect.owner == owner, effect.attempts == attempts else {
                return false
            }
            instances[key]?.effects[id]?.leaseExpiresAt = leaseExpiresAt
            return true
        }
    }

    /// See ``MachineStore/finishEffect(_:id:owner:attempts:)``.
    public func finishEffect(_ key: MachineKey, id: String, owner: String, attempts: Int) async throws -> Bool {
        instances.withLock { instances in
            guard let effect = instances[key]?.effects[id], effect.owner == owner, effect.attempts == attempts else {
                return false
            }
            instances[key]?.effects[id] = nil
            return true
        }
    }

    /// See ``MachineStore/keys(machine:in:enteredBefore:after:limit:)``.
    public func keys(
        machine: String, in state: String, enteredBefore date: Date?, after cursor: MachineStateEntry?, limit: Int
    ) async throws -> [MachineStateEntry] {
        let entries = instances.withLock { instances in
            instances.values.filter { $0.record.key.machine == machine }
                .compactMap { instance in instance.record.states.first { $0.state == state } }
        }
        return Array(
            entries.filter { entry in
                if let date, entry.enteredAt >= date { return false }
                if let cursor, (entry.enteredAt, entry.key) <= (cursor.enteredAt, cursor.key) { return false }
                return true
            }
            .sorted { ($0.enteredAt, $0.key) < ($1.enteredAt, $1.key) }.prefix(max(0, limit)))
    }

    /// See ``MachineStore/countsByState(machine:)``.
    public func countsByState(machine: String) async throws -> [String: Int] {
        instances.withLock { instances in
            var counts: [String: Int] = [:]
            for instance in instances.values where instance.record.key.machine == machine {
                for entry in instance.record.states { counts[entry.state, default: 0] += 1 }
            }
            return counts
        }
    }

    /// See ``MachineStore/history(_:after:limit:)``.
    public func history(_ key: MachineKey, after sequence: Int64, limit: Int) async throws -> [MachineStepRecord] {
        instances.withLock { instances in
            Array((instances[key]?.steps ?? []).filter { $0.sequence > sequence }.prefix(max(0, limit)))
        }
    }

    /// See ``MachineStore/pruneHistory(machine:before:)``.
    public func pruneHistory(machine: String, before date: Date) async throws -> Int {
        instances.withLock { instances in
            var pruned = 0
            for key in Array(instances.keys) where key.machine == machine {
                guard var instance = instances[key] else { continue }
                let version = instance.record.version
                let kept = instance.steps.filter { $0.at >= date || $0.sequence == version }
                pruned += instance.steps.count - kept.count
                instance.steps = kept
                instance.stepsByEvent = instance.stepsByEvent.filter { _, sequence in
                    kept.contains { $0.sequence == sequence }
                }
                instances[key] = instance
            }
            return pruned
        }
    }
}
