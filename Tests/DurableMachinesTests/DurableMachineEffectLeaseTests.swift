import BehaviorKitSync
import BehaviorKitTesting
import DurableMachines
import StateMachines
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An effect's lease is kept as a command's is (one lease system): renewed by a heartbeat on the
/// loop's clock, and the effect is stopped when its renewals fail for two thirds of the lease —
/// before another worker may take it over — its later events dropped.
struct DurableMachineEffectLeaseTests {
    enum Phase: String, Codable, Sendable { case fetching, fetched }
    enum Signal: String, Codable, Sendable { case fetched }

    /// An in-memory store whose effect renewals are counted, and refused with an error on demand.
    final class RenewalStore: MachineStore {
        struct Unreachable: Error {}
        let base = InMemoryMachineStore()
        let renewals = LockedValue(0)
        /// The renewals that answered.
        let renewed = LockedValue(0)
        let unreachable = LockedValue(false)

        func instance(_ key: MachineKey) async throws -> MachineInstanceRecord? { try await base.instance(key) }
        func step(_ key: MachineKey, eventID: String) async throws -> MachineStepRecord? {
            try await base.step(key, eventID: eventID)
        }
        func commit(_ commit: MachineCommit) async throws -> MachineCommitResult { try await base.commit(commit) }
        func update<Planned: Sendable>(
            _ key: MachineKey, _ plan: @escaping @Sendable (MachineInstanceRecord?) throws -> (MachineCommit, Planned)?
        ) async throws -> MachineUpdate<Planned> { try await base.update(key, plan) }
        func dueTimers(machine: String, dueBy date: Date, limit: Int) async throws -> [MachineTimerRecord] {
            try await base.dueTimers(machine: machine, dueBy: date, limit: limit)
        }
        func nextTimerDue(machine: String) async throws -> Date? { try await base.nextTimerDue(machine: machine) }
        func claimEffects(
            machine: String, owner: String, now: Date, leaseExpiresAt: Date, limit: Int
        ) async throws -> [MachineEffectRecord] {
            try await base.claimEffects(
                machine: machine, owner: owner, now: now, leaseExpiresAt: leaseExpiresAt, limit: limit)
        }
        func renewEffect(
            _ key: MachineKey, id: String, owner: String, attempts: Int, leaseExpiresAt: Date
        ) async throws -> Bool {
            if unreachable.withLock({ $0 }) { throw Unreachable() }
            renewals.withLock { $0 += 1 }
            defer { renewed.withLock { $0 += 1 } }
            return try await base.renewEffect(
                key, id: id, owner: owner, attempts: attempts, leaseExpiresAt: leaseExpiresAt)
        }
        func finishEffect(_ key: MachineKey, id: String, owner: String, attempts: Int) async throws -> Bool {
            try await base.finishEffect(key, id: id, owner: owner, attempts: attempts)
        }
        func keys(
            machine: String, in state: String, enteredBefore date: Date?, after cursor: MachineStateEntry?, limit: Int
        ) async throws -> [MachineStateEntry] {
            try await base.keys(machine: machine, in: state, enteredBefore: date, after: cursor, limit: limit)
        }
        func countsByState(machine: String) async throws -> [String: Int] {
            try await base.countsByState(machine: machine)
        }
        func history(_ key: MachineKey, after sequence: Int64, limit: Int) async throws -> [MachineStepRecord] {
            try await base.history(key, after: sequence, limit: limit)
        }
        func pruneHistory(machine: String, before date: Date) async throws -> Int {
            try await base.pruneHistory(machine: machine, before: date)
        }
    }

    /// The effect: waits until opened or cancelled (noting which), then sends `fetched`.
    final class Call: Sendable {
        let (opened, opener) = AsyncStream.makeStream(of: Void.self)
        let started = LockedValue(false)
        let cancelled = LockedValue(false)
        func run(_ send: EventSender<Signal>) async {
            started.withLock { $0 = true }
            for await _ in opened {}
            if Task.isCancelled { cancelled.withLock { $0 = true } }
            send.send(.fetched)
        }
    }

    static func machine(_ store: RenewalStore, _ call: Call, _ clock: ManualClock) -> DurableMachine<Phase, Signal, Int>
    {
        let definition = StateMachineDefinition<Phase, Signal, Int>(initial: .fetching) {
            In(.fetching) {
                On(.fetched, to: .fetched)
                Effect("call") { _, send in await call.run(send) }
            }
            In(.fetched)
        }
        return DurableMachine("calls", definition: definition, store: store, clock: clock)
    }

    /// Runs the loop (a 3 s lease, no poll in the way) until the effect started.
    static func started(
        _ machine: DurableMachine<Phase, Signal, Int>, _ call: Call, _ clock: ManualClock
    ) async throws -> Task<Void, any Error> {
        try await machine.start("a", context: 0)
        let loop = Task {
            try await machine.runTimersAndEffects(
                owner: "w1", pollInterval: .seconds(3600), leaseDuration: .seconds(3), clock: clock)
        }
        while !call.started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
        // The loop and the keeper's heartbeat both wait on the clock.
        await clock.waitForSleepers(count: 2)
        return loop
    }

    /// Advances the clock half a second, then waits for the heartbeat to sleep again.
    static func tick(_ clock: ManualClock) async {
        await clock.advance(by: .milliseconds(500))
        await clock.waitForSleepers(count: 2)
    }

    /// A ``tick(_:)`` that lets the renewal it started (a task of its own) answer before the
    /// clock moves on: the clock must not run ahead of the renewals it times.
    static func tick(_ clock: ManualClock, _ store: RenewalStore) async throws {
        await tick(clock)
        try await Task.sleep(for: .milliseconds(2))
        while store.renewals.withLock({ $0 }) != store.renewed.withLock({ $0 }) {
            try await Task.sleep(for: .milliseconds(1))
        }
        try await Task.sleep(for: .milliseconds(2))
    }

    @Test(.timeLimit(.minutes(1)))
    func anEffectsLeaseIsRenewedOnTheLoopsClockSoNoOtherWorkerTakesItOver() async throws {
        let clock = ManualClock()
        let store = RenewalStore()
        let call = Call()
        let machine = Self.machine(store, call, clock)
        let loop = try await Self.started(machine, call, clock)
        // One renewal a third of the lease: about ten in ten seconds of the loop's clock.
        var ticks = 0
        while store.renewals.withLock({ $0 }) < 9 && ticks < 200 {
            try await Self.tick(clock, store)
            ticks += 1
        }
        #expect(store.renewals.withLock { $0 } >= 9, "\(ticks) ticks of half a second renewed the lease too seldom")
        let now = clock.currentDate
        let taken = try await store.claimEffects(
            machine: "calls", owner: "w2", now: now, leaseExpiresAt: now.addingTimeInterval(3), limit: 10)
        #expect(taken.isEmpty, "another worker took over an effect whose lease w1 renews: \(taken)")
        #expect(!call.cancelled.withLock { $0 })

        call.opener.finish()
        while try await machine.instance("a")?.state != .fetched { try await Task.sleep(for: .milliseconds(1)) }
        loop.cancel()
        _ = await loop.result
    }

    @Test(.timeLimit(.minutes(1)))
    func anEffectWhoseLeaseCannotBeRenewedStopsBeforeItLapsesAndItsEventsAreDropped() async throws {
        let clock = ManualClock()
        let store = RenewalStore()
        let call = Call()
        let machine = Self.machine(store, call, clock)
        let loop = try await Self.started(machine, call, clock)
        store.unreachable.withLock { $0 = true }
        // Unconfirmed for two thirds of the 3 s lease, the effect is cancelled: at 2 s, before
        // the lease lapses. (No tick after: with nothing held, the heartbeat sleeps no more.)
        for _ in 0..<4 { await Self.tick(clock) }
        while !call.cancelled.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
        // The event it sent as it stopped is not delivered: the visit is another worker's now.
        try await Task.sleep(for: .milliseconds(20))
        #expect(try await machine.instance("a")?.state == .fetching)
        let now = clock.currentDate.addingTimeInterval(1.5)
        let taken = try await store.claimEffects(
            machine: "calls", owner: "w2", now: now, leaseExpiresAt: now.addingTimeInterval(3), limit: 10)
        #expect(taken.count == 1, "once the lease lapsed, another worker takes the effect over")
        loop.cancel()
        _ = await loop.result
    }
}
