import DurableMachines
import StateMachines

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MachineStoreConformance {
    static func effectsRunUnderAFencedLease(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "an effect is held by one worker at a time; a stale holder's writes are refused"
        let orders = try await machineStarted(store, clock)
        try await orders.send(.pay, to: "a")
        let now = clock.currentDate
        let first = try await store.claimEffects(
            machine: "order", owner: "w1", now: now, leaseExpiresAt: now.addingTimeInterval(30), limit: 10)
        try expect(first.count == 1 && first[0].attempts == 1 && first[0].owner == "w1", check, "w1 claimed \(first)")
        let whileHeld = try await store.claimEffects(
            machine: "order", owner: "w2", now: now.addingTimeInterval(29), leaseExpiresAt: now.addingTimeInterval(60),
            limit: 10)
        try expect(whileHeld.isEmpty, check, "w2 claimed an effect w1 holds: \(whileHeld)")
        let renewed = try await store.renewEffect(
            first[0].key, id: first[0].id, owner: "w1", attempts: 1, leaseExpiresAt: now.addingTimeInterval(40))
        try expect(renewed, check, "w1 could not renew its lease")
        let taken = try await store.claimEffects(
            machine: "order", owner: "w1", now: now.addingTimeInterval(41), leaseExpiresAt: now.addingTimeInterval(71),
            limit: 10)
        try expect(taken.count == 1 && taken[0].attempts == 2, check, "after the lease, w1 claimed again: \(taken)")
        // The first attempt is stale, though its owner is the same.
        let staleRenew = try await store.renewEffect(
            first[0].key, id: first[0].id, owner: "w1", attempts: 1, leaseExpiresAt: now.addingTimeInterval(99))
        let staleFinish = try await store.finishEffect(first[0].key, id: first[0].id, owner: "w1", attempts: 1)
        try expect(
            !staleRenew && !staleFinish, check, "the stale attempt renewed (\(staleRenew)) or finished (\(staleFinish))"
        )
        let finished = try await store.finishEffect(taken[0].key, id: taken[0].id, owner: "w1", attempts: 2)
        try expect(finished, check, "the current attempt could not finish")
        let left = try await store.claimEffects(
            machine: "order", owner: "w3", now: now.addingTimeInterval(500),
            leaseExpiresAt: now.addingTimeInterval(530),
            limit: 10)
        try expect(left.isEmpty, check, "a finished effect was claimed again: \(left)")
    }

    static func effectEventsReachOnlyTheirVisit(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "an effect's event is delivered once, to the visit that started it, and not after it was left"
        let orders = try await machineStarted(store, clock)
        try await orders.send(.pay, to: "a")
        let ran = try await orders.runEffects(owner: "w1")
        let a = try await orders.instance("a")
        try expect(
            ran == 1 && a?.state == .shipped, check,
            "the effect ran \(ran) times; the order is \(String(describing: a?.state))")
        let history = try await orders.history(of: "a")
        let delivered = history.filter { if case .effect = $0.trigger { true } else { false } }
        try expect(
            delivered.count == 2 && a?.context.count == 1, check, "\(delivered.count) effect steps in the history")
        // Run again after a crash (its lease lapsed; it sends its event again, under the same id).
        try await orders.start("b", context: ConformanceOrder())
        try await orders.send(.pay, to: "b")
        let now = clock.currentDate
        let crashed = try await store.claimEffects(
            machine: "order", owner: "dead", now: now, leaseExpiresAt: now.addingTimeInterval(1), limit: 10)
        try expect(crashed.count == 1, check, "the crashed worker claimed \(crashed.count)")
        guard let effectID = crashed.first?.id else { return }
        // The dead worker had delivered its first event before it died.
        try await orders.sendAsEffect(.count, crashed[0], ordinal: 1)
        await clock.advance(by: .seconds(2))
        let rerun = try await orders.runEffects(owner: "w2")
        let b = try await orders.history(of: "b")
        let effectSteps = b.filter { if case .effect = $0.trigger { true } else { false } }
        let bNow = try await orders.instance("b")
        try expect(
            rerun == 1 && effectSteps.map(\.eventID) == ["effect:\(effectID):1", "effect:\(effectID):2"]
                && bNow?.context.count == 1 && bNow?.state == .shipped, check,
            "after the takeover: ran \(rerun), effect steps \(effectSteps.map(\.eventID)), count \(String(describing: bNow?.context.count))"
        )
        // Left before it ran: the effect is gone with its visit, and an event of it is dropped.
        try await orders.start("c", context: ConformanceOrder())
        try await orders.send(.pay, to: "c")
        let claimed = try await store.claimEffects(
            machine: "order", owner: "slow", now: clock.currentDate,
            leaseExpiresAt: clock.currentDate.addingTimeInterval(30),
            limit: 10)
        try await orders.send(.cancel, to: "c")
        let dropped = try await orders.sendAsEffect(.ship, claimed[0], ordinal: 1)
        let c = try await orders.instance("c")
        try expect(
            dropped == nil && c?.state == .cancelled, check,
            "an event of a left visit was delivered: \(String(describing: dropped))")
        let finished = try await store.finishEffect(claimed[0].key, id: claimed[0].id, owner: "slow", attempts: 1)
        let stillThere = try await store.claimEffects(
            machine: "order", owner: "w3", now: clock.currentDate.addingTimeInterval(100),
            leaseExpiresAt: clock.currentDate.addingTimeInterval(130), limit: 10)
        try expect(!finished && stillThere.isEmpty, check, "the left visit's effect is still there: \(stillThere)")
    }

    static func keysAreIndexedByState(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "keys by state: in order of entry, before a date, paged by cursor; counts by state"
        let orders = machine(store, clock)
        let start = clock.currentDate
        for index in 0..<5 {
            try await orders.start("k\(index)", context: ConformanceOrder())
            await clock.advance(by: .seconds(1))
        }
        try await orders.send(.pay, to: "k1")
        try await orders.send(.count, to: "k2")  // an internal step keeps the entry time
        let placed = try await orders.keys(in: .placed)
        try expect(placed.map(\.key) == ["k0", "k2", "k3", "k4"], check, "placed: \(placed.map(\.key))")
        try expect(placed[1].enteredAt == start.addingTimeInterval(2), check, "k2 entered at \(placed[1].enteredAt)")
        let early = try await orders.keys(in: .placed, enteredBefore: start.addingTimeInterval(3))
        try expect(early.map(\.key) == ["k0", "k2"], check, "placed before 3 s: \(early.map(\.key))")
        let page1 = try await orders.keys(in: .placed, limit: 2)
        let page2 = try await orders.keys(in: .placed, after: page1.last, limit: 2)
        try expect(
            page1.map(\.key) + page2.map(\.key) == placed.map(\.key), check,
            "pages \(page1.map(\.key)) \(page2.map(\.key))")
        let counts = try await orders.countsByState()
        try expect(counts == ["placed": 4, "paid": 1], check, "counts \(counts)")
    }

    static func historyIsPrunedButTheLatestStepStays(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "pruning deletes history before a date, but each instance's latest step"
        let orders = try await machineStarted(store, clock)
        try await orders.send(.count, to: "a", id: "old")
        try await orders.start("b", context: ConformanceOrder())
        await clock.advance(by: .seconds(10))
        let cut = clock.currentDate
        try await orders.send(.count, to: "a", id: "new")
        let pruned = try await orders.pruneHistory(before: cut)
        let a = try await orders.history(of: "a")
        let b = try await orders.history(of: "b")
        try expect(
            pruned == 2 && a.map(\.sequence) == [3] && b.map(\.sequence) == [1], check,
            "pruned \(pruned); a keeps \(a.map(\.sequence)), b keeps \(b.map(\.sequence))")
        let replay = try await orders.send(.count, to: "a", id: "new")
        try expect(replay.isReplay, check, "a kept step's id was forgotten")
    }
}

extension DurableMachine where State == ConformanceOrderState, Event == ConformanceOrderEvent {
    /// Delivers `event` as the conformance effect's event numbered `ordinal` would be.
    @discardableResult
    fileprivate func sendAsEffect(
        _ event: ConformanceOrderEvent, _ record: MachineEffectRecord, ordinal: Int
    ) async throws -> MachineStep<ConformanceOrderState, ConformanceOrderEvent>? {
        let body = try JSONDecoder().decode(ConformanceEffectBody.self, from: Data(record.body))
        return try await deliverAsEffectRun(event, from: body.effect, record: record, ordinal: ordinal)
    }
}

/// The part of a stored effect the checks read.
private struct ConformanceEffectBody: Decodable {
    var effect: EffectIdentity<ConformanceOrderState>
}
