import Commands
import DurableMachines
import Logging
import StateMachines

/// Where an order is in its life. `unpaid` is `placed` or `paying`: either can be cancelled.
enum OrderState: String, Codable, Hashable, Sendable, CaseIterable {
    case unpaid, placed, paying, paid, shipped, cancelled

    /// The states an order is in one of (`unpaid` holds two of them).
    static let leaves: [OrderState] = [.placed, .paying, .paid, .shipped, .cancelled]
}

/// What moves an order along: the checkout's steps and compensations send them (see
/// `CheckoutSteps`), the reminder sends `remind`.
enum OrderEvent: PayloadEvent, Codable {
    case pay
    case confirmPayment(id: String)
    case ship(tracking: String)
    case cancel
    case remind

    enum Kind: Hashable, Sendable { case pay, confirmPayment, ship, cancel, remind }

    var kind: Kind {
        switch self {
        case .pay: .pay
        case .confirmPayment: .confirmPayment
        case .ship: .ship
        case .cancel: .cancel
        case .remind: .remind
        }
    }
}

/// The context of an order's lifecycle, committed with every step: the order as it was placed,
/// and what its checkout recorded.
struct OrderProgress: Codable, Hashable, Sendable {
    var order: Order
    var paymentID: String?
    var tracking: String?
    var reminders = 0
}

/// Every order's lifecycle, one durable instance per order id, shared by every process on the
/// store.
typealias OrderLifecycles = DurableMachine<OrderState, OrderEvent, OrderProgress>

/// The order lifecycle: placed → paying → paid → shipped, or cancelled on the way. It records
/// where the checkout workflow took the order; the payment deadline is the workflow's (its
/// wait for the confirmation), whose rollback cancels the order.
///
/// ```mermaid
/// stateDiagram-v2
///     [*] --> unpaid
///     state unpaid {
///         [*] --> placed
///         placed --> paying : pay
///     }
///     paying --> paid : confirmPayment
///     unpaid --> cancelled : cancel
///     paid --> shipped : ship
///     paid --> cancelled : cancel
///     shipped --> cancelled : cancel
///     cancelled --> [*]
/// ```
///
/// A paid order is cancelled when its shipping fails and the checkout rolls back.
enum OrderLifecycle {
    typealias Definition = StateMachineDefinition<OrderState, OrderEvent, OrderProgress>

    static func definition() -> Definition {
        Definition(initial: .unpaid) {
            In(.unpaid, initial: .placed) {
                On(.cancel, to: .cancelled)
                In(.placed) {
                    On(.pay, to: .paying)
                }
                In(.paying) {
                    On(.confirmPayment, to: .paid) { progress, event in
                        if case .confirmPayment(let id) = event { progress.paymentID = id }
                    }
                }
            }
            In(.paid) {
                On(.ship, to: .shipped) { progress, event in
                    if case .ship(let tracking) = event { progress.tracking = tracking }
                }
                On(.cancel, to: .cancelled)
            }
            In(.shipped) {
                On(.remind) { $0.reminders += 1 }
                On(.cancel, to: .cancelled)
            }
            In(.cancelled, final: true)
        }
    }

    /// The lifecycles, kept in `store`. The step that ships an order emits its reminder (a
    /// command on the `reminders` queue, due `reminderDelay` later) in the step's own commit:
    /// the order never ships without it.
    static func machine(
        store: any MachineStore, journal: any CommandJournal, options: Options, logger: Logger
    ) -> OrderLifecycles {
        OrderLifecycles(
            "order", definition: definition(), store: store, logger: logger,
            journal: journal
        ) { step, progress in
            guard case .event(.ship) = step.trigger, !step.isRefusal else { return [] }
            return [try Reminders.command(for: progress.order.id, after: options.reminderDelay)]
        }
    }
}
