import Commands
import DurableMachines
import StateMachines

/// The states of the order lifecycle the machine-store checks drive.
enum ConformanceOrderState: String, Codable, Sendable, Hashable {
    case placed, paid, shipped, cancelled, onHold
}

/// Its events.
enum ConformanceOrderEvent: String, Codable, Sendable, Hashable {
    case pay, ship, cancel, hold, resume, count, deliver
}

/// Its context.
struct ConformanceOrder: Codable, Sendable, Hashable {
    var count = 0
    var reminders = 0
    var holdSeconds = 5
    var remindWhenHeld = true
}

typealias ConformanceMachine = DurableMachine<ConformanceOrderState, ConformanceOrderEvent, ConformanceOrder>

extension MachineStoreConformance {
    /// placed → paid → shipped; an unpaid order is cancelled after 10 s; `hold` parks a placed
    /// order (its timer is computed from the context and guarded), `resume` brings it back (a new
    /// visit of placed); a paid order's effect counts once and ships it.
    static let lifecycle = StateMachineDefinition<ConformanceOrderState, ConformanceOrderEvent, ConformanceOrder>(
        initial: .placed
    ) {
        In(.placed) {
            On(.pay, to: .paid)
            On(.cancel, to: .cancelled)
            On(.hold, to: .onHold)
            On(.count) { $0.count += 1 }
            After(.seconds(10), to: .cancelled)
        }
        In(.onHold) {
            On(.resume, to: .placed)
            After(
                "hold time", { .seconds($0.holdSeconds) }, to: .onHold,
                when: Guard("remind when held") { $0.remindWhenHeld }, actions: [Action("remind") { $0.reminders += 1 }]
            )
        }
        In(.paid) {
            On(.ship, to: .shipped)
            On(.cancel, to: .cancelled)
            On(.count) { $0.count += 1 }
            Effect("count and ship") { _, send in
                send.send(.count)
                send.send(.ship)
            }
        }
        In(.shipped) { On(.count) { $0.count += 1 } }
        In(.cancelled)
    }

    static func machine(
        _ store: any MachineStore, _ clock: ManualClock, missedTimers: MissedTimerPolicy = .fire
    ) -> ConformanceMachine {
        DurableMachine("order", definition: lifecycle, store: store, clock: clock, missedTimers: missedTimers)
    }

    /// The machine of `store` with the instance "a" started in a new order.
    static func machineStarted(_ store: any MachineStore, _ clock: ManualClock) async throws -> ConformanceMachine {
        let orders = machine(store, clock)
        try await orders.start("a", context: ConformanceOrder())
        return orders
    }
}
