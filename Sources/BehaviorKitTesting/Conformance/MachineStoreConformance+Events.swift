import DurableMachines
import StateMachines

extension MachineStoreConformance {
    static func startingCreatesOnceAndAnswersHowItStands(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "starting creates an instance once; starting it again answers how it stands"
        let orders = machine(store, clock)
        let started = try await orders.start("a", context: ConformanceOrder(count: 7))
        try expect(
            started.version == 1 && started.state == .placed, check, "start gave \(started.version), \(started.state)")
        try await orders.send(.count, to: "a")
        let again = try await orders.start("a", context: ConformanceOrder(count: 99))
        try expect(
            again.version == 2 && again.context.count == 8, check,
            "starting again gave version \(again.version), count \(again.context.count) (expected 2, 8: unchanged)")
        let history = try await orders.history(of: "a")
        try expect(history.count == 2 && history[0].trigger == .start, check, "history \(history.map(\.trigger))")
    }

    static func eventsForKeysNeverStartedAreRefused(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "an event for a key never started is a typed error, and creates nothing"
        let orders = machine(store, clock)
        do {
            try await orders.send(.pay, to: "ghost", id: "e1")
            throw MachineStoreConformanceFailure(check: check, detail: "send to 'ghost' succeeded")
        } catch let error as DurableMachineError {
            try expect(error == .notStarted(MachineKey(machine: "order", key: "ghost")), check, "threw \(error)")
        }
        let instance = try await orders.instance("ghost")
        try expect(instance == nil, check, "an instance 'ghost' exists after the refused send")
        let step = try await store.step(MachineKey(machine: "order", key: "ghost"), eventID: "e1")
        try expect(step == nil, check, "a step with id 'e1' was recorded for 'ghost'")
    }

    static func eventsApplyInOrderAndMakeTheHistory(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "events apply in order; each step is a history row with its transition and configuration"
        let orders = try await machineStarted(store, clock)
        let paid = try await orders.send(.pay, to: "a", id: "pay-1")
        try expect(
            paid.sequence == 2 && paid.outcome?.transition?.target == .paid && paid.configuration == [.paid], check,
            "pay gave \(paid)")
        await clock.advance(by: .seconds(1))
        let shipped = try await orders.send(.ship, to: "a")
        try expect(shipped.sequence == 3 && shipped.configuration == [.shipped], check, "ship gave \(shipped)")
        let history = try await orders.history(of: "a")
        try expect(history.map(\.sequence) == [1, 2, 3], check, "history sequences \(history.map(\.sequence))")
        try expect(history[1] == paid && history[2] == shipped, check, "history \(history) differs from the answers")
        let page = try await orders.history(of: "a", after: 1, limit: 1)
        try expect(page.map(\.sequence) == [2], check, "history after 1, limit 1 gave \(page.map(\.sequence))")
        let instance = try await orders.instance("a")
        try expect(
            instance?.state == .shipped && instance?.version == 3, check,
            "instance is \(String(describing: instance?.state)) at \(String(describing: instance?.version))")
    }

    static func anEventIdIsAppliedAtMostOnce(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "an event id is applied at most once: sent again, it answers the recorded step"
        let orders = try await machineStarted(store, clock)
        let first = try await orders.send(.count, to: "a", id: "req-1")
        let again = try await orders.send(.count, to: "a", id: "req-1")
        try expect(!first.isReplay && again.isReplay, check, "isReplay \(first.isReplay), \(again.isReplay)")
        var replayed = again
        replayed.isReplay = false
        try expect(replayed == first, check, "the replay \(again) differs from the step \(first)")
        // Another key may use the same id.
        try await orders.start("b", context: ConformanceOrder())
        let other = try await orders.send(.count, to: "b", id: "req-1")
        try expect(!other.isReplay, check, "the id 'req-1' of key 'a' was taken as applied on key 'b'")
        let instance = try await orders.instance("a")
        try expect(
            instance?.context.count == 1 && instance?.version == 2, check,
            "count \(String(describing: instance?.context.count))")
    }

    static func refusalsAreRecorded(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "a refusal is a recorded outcome, answered again for its id"
        let orders = try await machineStarted(store, clock)
        let refused = try await orders.send(.ship, to: "a", id: "ship-early")
        try expect(refused.isRefusal && refused.configuration == [.placed], check, "ship in placed gave \(refused)")
        let again = try await orders.send(.ship, to: "a", id: "ship-early")
        try expect(again.isReplay && again.isRefusal, check, "the retried refusal gave \(again)")
        let history = try await orders.history(of: "a")
        try expect(history.count == 2 && history[1].isRefusal, check, "history \(history.map(\.trigger))")
    }

    static func concurrentSendersOnOneKeyApplyEveryEventOnce(
        _ store: any MachineStore, _ clock: ManualClock
    ) async throws {
        let check = "16 concurrent senders on one key: every event applied once, one version each"
        let orders = try await machineStarted(store, clock)
        let senders = 16
        let each = 8
        try await withThrowingTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for event in 0..<each {
                        try await orders.send(.count, to: "a", id: "s\(sender)-e\(event)")
                        // Sent twice: the second is a replay.
                        try await orders.send(.count, to: "a", id: "s\(sender)-e\(event)")
                    }
                }
            }
            try await group.waitForAll()
        }
        let instance = try await orders.instance("a")
        try expect(
            instance?.context.count == senders * each && instance?.version == Int64(senders * each + 1), check,
            "count \(String(describing: instance?.context.count)), version \(String(describing: instance?.version))")
        let history = try await orders.history(of: "a", limit: 10_000)
        try expect(
            history.map(\.sequence) == Array(1...Int64(senders * each + 1)), check,
            "sequences are not 1...\(senders * each + 1)")
        let ids = history.compactMap(\.eventID)
        try expect(Set(ids).count == ids.count && ids.count == senders * each, check, "\(ids.count) ids recorded")
        // Each step was computed from the one before: the counts rise by one.
        let counts = history.dropFirst().compactMap { $0.outcome?.transition != nil ? 1 : nil }.count
        try expect(counts == senders * each, check, "\(counts) steps transitioned")
    }
}
