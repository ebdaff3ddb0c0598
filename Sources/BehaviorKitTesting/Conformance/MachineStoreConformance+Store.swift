import DurableMachines

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MachineStoreConformance {
    static let key = MachineKey(machine: "raw", key: "k")

    static func rawCommit(
        version: Int64, eventID: String? = nil, states: [String] = ["s"], timers: [String] = [],
        disarm: [String] = [], at date: Date = Date(timeIntervalSince1970: 1_000)
    ) -> MachineCommit {
        MachineCommit(
            key: key, expectedVersion: version - 1, snapshot: Array("{\"v\":\(version)}".utf8),
            states: states.map { MachineStateEntry(key: key.key, state: $0, enteredAt: date) },
            step: MachineStepRecord(sequence: version, eventID: eventID, at: date, body: Array("\(version)".utf8)),
            armedTimers: timers.map {
                MachineTimerRecord(key: key, id: $0, dueAt: date.addingTimeInterval(10), body: Array($0.utf8))
            },
            disarmedTimers: disarm)
    }

    static func aStaleVersionIsRefused(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "a commit computed from a stale version is refused and changes nothing"
        try expect(try await store.commit(rawCommit(version: 1)) == .committed, check, "the start did not commit")
        try expect(try await store.commit(rawCommit(version: 2)) == .committed, check, "version 2 did not commit")
        let stale = try await store.commit(rawCommit(version: 2, timers: ["t"]))
        try expect(stale == .versionConflict(current: 2), check, "a second version 2 gave \(stale)")
        let restart = try await store.commit(rawCommit(version: 1))
        try expect(restart == .versionConflict(current: 2), check, "starting an existing key gave \(restart)")
        let ahead = try await store.commit(rawCommit(version: 4))
        try expect(ahead == .versionConflict(current: 2), check, "skipping a version gave \(ahead)")
        let missing = try await store.commit(
            MachineCommit(
                key: MachineKey(machine: "raw", key: "none"), expectedVersion: 3, snapshot: [], states: [],
                step: MachineStepRecord(sequence: 4, eventID: nil, at: Date(timeIntervalSince1970: 0), body: [])))
        try expect(missing == .versionConflict(current: nil), check, "a step on a missing key gave \(missing)")
        let instance = try await store.instance(key)
        try expect(
            instance?.version == 2 && instance?.snapshot == Array("{\"v\":2}".utf8), check,
            "the instance is at \(String(describing: instance?.version))")
        let timers = try await store.dueTimers(machine: "raw", dueBy: Date(timeIntervalSince1970: 10_000), limit: 10)
        try expect(timers.isEmpty, check, "the refused commit armed \(timers.map(\.id))")
    }

    static func aCommitIsAllOrNothing(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "a commit applies all its changes or none; a duplicate event id changes nothing"
        _ = try await store.commit(rawCommit(version: 1, timers: ["t1", "t2"]))
        let second = try await store.commit(
            rawCommit(version: 2, eventID: "e", states: ["s", "u"], timers: ["t3"], disarm: ["t1"]))
        try expect(second == .committed, check, "version 2 gave \(second)")
        let due = try await store.dueTimers(machine: "raw", dueBy: Date(timeIntervalSince1970: 10_000), limit: 10)
        try expect(due.map(\.id).sorted() == ["t2", "t3"], check, "timers after version 2: \(due.map(\.id))")
        let duplicate = try await store.commit(rawCommit(version: 3, eventID: "e", timers: ["t4"], disarm: ["t2"]))
        guard case .duplicateEvent(let recorded) = duplicate else {
            throw MachineStoreConformanceFailure(check: check, detail: "a second step with id 'e' gave \(duplicate)")
        }
        try expect(recorded.sequence == 2 && recorded.eventID == "e", check, "the recorded step is \(recorded)")
        let after = try await store.dueTimers(machine: "raw", dueBy: Date(timeIntervalSince1970: 10_000), limit: 10)
        try expect(
            after.map(\.id).sorted() == ["t2", "t3"], check, "the duplicate changed the timers: \(after.map(\.id))")
        let instance = try await store.instance(key)
        try expect(
            instance?.version == 2 && instance?.states.map(\.state) == ["s", "u"], check,
            "instance \(String(describing: instance))")
        let byID = try await store.step(key, eventID: "e")
        try expect(byID == recorded, check, "step(eventID:) gave \(String(describing: byID))")
        let next = try await store.timerAndLimitCheck()
        try expect(next, check, "dueTimers ignored its limit or nextTimerDue was wrong")
    }

    static func unknownStatesAreNamed(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "a snapshot naming states the definition lacks is a typed error naming them"
        let orders = try await machineStarted(store, clock)
        guard let record = try await store.instance(MachineKey(machine: "order", key: "a")) else {
            throw MachineStoreConformanceFailure(check: check, detail: "the started instance is missing")
        }
        let text = String(decoding: record.snapshot, as: UTF8.self).replacing("placed", with: "ghost")
        var commit = rawCommit(version: 2)
        commit.key = record.key
        commit.snapshot = Array(text.utf8)
        commit.step.body = record.snapshot
        try expect(try await store.commit(commit) == .committed, check, "the renamed snapshot did not commit")
        do {
            _ = try await orders.instance("a")
            throw MachineStoreConformanceFailure(check: check, detail: "reading it succeeded")
        } catch let error as DurableMachineError {
            try expect(error == .unknownStates(record.key, ["ghost"]), check, "reading it threw \(error)")
        }
        do {
            try await orders.send(.pay, to: "a")
            throw MachineStoreConformanceFailure(check: check, detail: "sending to it succeeded")
        } catch let error as DurableMachineError {
            try expect(error == .unknownStates(record.key, ["ghost"]), check, "sending to it threw \(error)")
        }
    }
}

extension MachineStore {
    /// Whether `dueTimers` honours its limit and order, and `nextTimerDue` names the earliest.
    fileprivate func timerAndLimitCheck() async throws -> Bool {
        let due = try await dueTimers(machine: "raw", dueBy: Date(timeIntervalSince1970: 10_000), limit: 1)
        let next = try await nextTimerDue(machine: "raw")
        return due.count == 1 && next == Date(timeIntervalSince1970: 1_010)
    }
}

extension MachineStoreConformance {
    struct PlanRefused: Error {}

    static func anUpdatePlansOnWhatItReadsAndAThrowChangesNothing(
        _ store: any MachineStore, _ clock: ManualClock
    ) async throws {
        let check = "update plans on the instance it reads; a plan that throws or returns nil changes nothing"
        let missing = try await store.update(key) { record -> (MachineCommit, Int)? in
            record == nil ? (rawCommit(version: 1), 1) : nil
        }
        guard case .committed(1) = missing else {
            throw MachineStoreConformanceFailure(check: check, detail: "starting through update gave \(missing)")
        }
        let next = try await store.update(key) { record -> (MachineCommit, Int64)? in
            guard let record else { return nil }
            return (rawCommit(version: record.version + 1, timers: ["t"]), record.version + 1)
        }
        guard case .committed(2) = next else {
            throw MachineStoreConformanceFailure(check: check, detail: "the step after it gave \(next)")
        }
        do {
            _ = try await store.update(key) { record -> (MachineCommit, Int)? in throw PlanRefused() }
            throw MachineStoreConformanceFailure(check: check, detail: "a plan's error was not thrown")
        } catch is PlanRefused {}
        let skipped = try await store.update(key) { _ -> (MachineCommit, Int)? in nil }
        guard case .skipped = skipped else {
            throw MachineStoreConformanceFailure(check: check, detail: "a plan returning nil gave \(skipped)")
        }
        let duplicate = try await store.update(key) { record -> (MachineCommit, Int)? in
            (rawCommit(version: (record?.version ?? 0) + 1, eventID: "e"), 0)
        }
        let again = try await store.update(key) { record -> (MachineCommit, Int)? in
            (rawCommit(version: (record?.version ?? 0) + 1, eventID: "e"), 0)
        }
        guard case .committed = duplicate, case .duplicateEvent(let recorded) = again, recorded.sequence == 3 else {
            throw MachineStoreConformanceFailure(
                check: check, detail: "an event id updated twice gave \(duplicate), \(again)")
        }
        let instance = try await store.instance(key)
        try expect(instance?.version == 3, check, "the instance is at \(String(describing: instance?.version))")
    }
}
