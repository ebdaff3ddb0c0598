import StateMachines

/// Where an order is in its life.
enum OrderState: String, Codable, Hashable, Sendable, CaseIterable {
    case placed, paying, paid, shipped, cancelled
}

/// What moves an order along: the checkout's steps send them (see `CheckoutSteps`).
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

/// What the lifecycle remembers beside its state: it is saved in every snapshot.
struct OrderProgress: Codable, Hashable, Sendable {
    var paymentID: String?
    var tracking: String?
    var reminders = 0
}

/// The order lifecycle: placed → paying → paid → shipped, or cancelled on the way.
///
/// ```mermaid
/// stateDiagram-v2
///     [*] --> placed
///     placed --> paying : pay
///     paying --> paid : confirmPayment
///     paid --> shipped : ship
///     placed --> cancelled : cancel
///     paying --> cancelled : cancel
///     paid --> cancelled : cancel
///     shipped --> cancelled : cancel
///     cancelled --> [*]
/// ```
///
/// A shipped order can still be cancelled: when the process dies between the carrier's answer
/// and the journal's record of it, recovery rolls the checkout back and the parcel is recalled.
enum OrderLifecycle {
    typealias Definition = StateMachineDefinition<OrderState, OrderEvent, OrderProgress>

    static let definition = Definition(initial: .placed) {
        In(.placed) {
            On(.pay, to: .paying)
            On(.cancel, to: .cancelled)
        }
        In(.paying) {
            On(.confirmPayment, to: .paid) { progress, event in
                if case .confirmPayment(let id) = event { progress.paymentID = id }
            }
            On(.cancel, to: .cancelled)
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
