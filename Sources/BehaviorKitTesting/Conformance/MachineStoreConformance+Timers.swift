import Commands
import DurableMachines
import StateMachines

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MachineStoreConformance {
    static func aTimerFiresOnceWhenDue(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "a durable timer fires once when due, whichever workers look at once"
        let orders = try await machineStarted(store, clock)
        await clock.advance(by: .seconds(9))
        let early = try await orders.fireDueTimers()
        try expect(early.isEmpty, check, "a 10 s timer fired after 9 s: \(early)")
        await clock.advance(by: .seconds(1))
        // Several workers (two handles on one store, as two processes) fire at once.
        let other = machine(store, clock)
        let fired = try await withThrowingTaskGroup(
            of: [MachineStep<ConformanceOrderState, ConformanceOrderEvent>].self
        ) {
            group in
            for worker in [orders, other, orders, other] { group.addTask { try await worker.fireDueTimers() } }
            var steps: [MachineStep<ConformanceOrderState, ConformanceOrderEvent>] = []
            for try await found in group { steps += found }
            return steps
        }
        try expect(fired.count == 1, check, "\(fired.count) steps fired the timer")
        guard case .timer(let identity) = fired.first?.trigger else {
            throw MachineStoreConformanceFailure(
                check: check, detail: "the step's trigger is \(String(describing: fired.first?.trigger))")
        }
        try expect(identity.state == .placed && identity.index == 0, check, "the timer is \(identity)")
        let instance = try await orders.instance("a")
        try expect(
            instance?.state == .cancelled, check, "after the timer the order is \(String(describing: instance?.state))")
        await clock.advance(by: .seconds(60))
        let again = try await orders.fireDueTimers()
        let next = try await orders.nextTimerDue()
        try expect(
            again.isEmpty && next == nil, check,
            "the timer fired again (\(again)) or is still armed (\(String(describing: next)))")
    }

    static func leavingAStateCancelsItsTimer(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "leaving a state cancels its timer; a timer of an earlier visit never fires into a later one"
        let orders = machine(store, clock)
        try await orders.start("a", context: ConformanceOrder(remindWhenHeld: false))
        let start = clock.currentDate
        await clock.advance(by: .seconds(6))
        try await orders.send(.hold, to: "a")
        try await orders.send(.resume, to: "a")  // placed again, 6 s later: its timer is due at 16 s
        await clock.advance(by: .seconds(5))  // 11 s: the first visit's timer would be due
        let atEleven = try await orders.fireDueTimers()
        try expect(atEleven.isEmpty, check, "a timer fired at 11 s: \(atEleven.map(\.trigger))")
        let next = try await orders.nextTimerDue()
        try expect(
            next == start.addingTimeInterval(16), check,
            "the next timer is due at \(String(describing: next)), expected 16 s after the start")
        await clock.advance(by: .seconds(5))
        let atSixteen = try await orders.fireDueTimers()
        guard case .timer(let identity) = atSixteen.first?.trigger, atSixteen.count == 1 else {
            throw MachineStoreConformanceFailure(check: check, detail: "at 16 s: \(atSixteen.map(\.trigger))")
        }
        let history = try await orders.history(of: "a")
        try expect(
            identity.visit > 1 && history.count == 4, check,
            "the timer that fired is \(identity); history \(history.count) steps")
        // Leaving for good: paying disarms the new visit's timer too.
        try await orders.start("b", context: ConformanceOrder())
        try await orders.send(.pay, to: "b")
        await clock.advance(by: .seconds(60))
        let afterPaying = try await orders.fireDueTimers()
        try expect(afterPaying.isEmpty, check, "a timer fired into a paid order: \(afterPaying.map(\.trigger))")
    }

    static func computedAndGuardedDelaysWork(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "a computed delay is due by the context on entry; a guard that fails consumes the timer"
        let orders = machine(store, clock)
        try await orders.start("a", context: ConformanceOrder(holdSeconds: 3))
        try await orders.send(.hold, to: "a")
        await clock.advance(by: .seconds(3))
        let reminded = try await orders.fireDueTimers()
        let instance = try await orders.instance("a")
        try expect(
            reminded.count == 1 && instance?.context.reminders == 1 && instance?.state == .onHold, check,
            "after 3 s on hold: \(reminded.count) steps, reminders \(String(describing: instance?.context.reminders))")
        // The reminder re-entered onHold: a new visit, a new timer, 3 s on.
        await clock.advance(by: .seconds(3))
        try expect(try await orders.fireDueTimers().count == 1, check, "the second reminder did not fire")
        // A guard that does not hold: the step is recorded without a transition, the timer gone.
        try await orders.start("b", context: ConformanceOrder(holdSeconds: 2, remindWhenHeld: false))
        try await orders.send(.hold, to: "b")
        await clock.advance(by: .seconds(2))
        let guarded = try await orders.fireDueTimers()
        let b = try await orders.instance("b")
        try expect(
            guarded.count == 1 && guarded[0].transitions.isEmpty && b?.context.reminders == 0, check,
            "a guarded-off timer gave \(guarded)")
        await clock.advance(by: .seconds(60))
        let after = try await orders.fireDueTimers()
        // Order 'a' goes on reminding itself; 'b' has no timer left.
        try expect(
            after.allSatisfy { $0.eventID?.contains("onHold") == true } && !after.isEmpty, check, "after: \(after)")
        let bHistory = try await orders.history(of: "b")
        try expect(bHistory.count == 3, check, "the guarded-off timer of 'b' fired again: \(bHistory.count) steps")
    }

    static func lateTimersFollowThePolicy(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "a timer found late fires, or with .skip(lateBy:) is dropped with a missed-timer step"
        let firing = machine(store, clock)
        try await firing.start("late", context: ConformanceOrder())
        let skipping = DurableMachine(
            "skipping", definition: lifecycle, store: store, clock: clock, missedTimers: .skip(lateBy: .seconds(30)))
        try await skipping.start("late", context: ConformanceOrder())
        try await skipping.start("prompt", context: ConformanceOrder())
        await clock.advance(by: .seconds(11))
        let prompt = try await skipping.fireDueTimers()
        try expect(
            prompt.count == 2 && prompt.allSatisfy { if case .timer = $0.trigger { true } else { false } }, check,
            "timers 1 s late under .skip(30 s): \(prompt.map(\.trigger))")
        try await skipping.start("later", context: ConformanceOrder())
        await clock.advance(by: .seconds(3600))
        let late = try await skipping.fireDueTimers()
        guard late.count == 1, case .missedTimer = late[0].trigger else {
            throw MachineStoreConformanceFailure(
                check: check, detail: "an hour late under .skip: \(late.map(\.trigger))")
        }
        try expect(
            late[0].configuration == [.placed], check, "the skipped timer moved the order to \(late[0].configuration)")
        let fired = try await firing.fireDueTimers()
        try expect(
            fired.count == 1 && fired[0].configuration == [.cancelled], check, "an hour late under .fire: \(fired)")
    }
}
