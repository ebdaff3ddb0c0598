import BehaviorKitSync
public import Commands
public import DurableMachines
public import StateMachines

/// The lifecycle the machine fleet drives: a parcel is placed, maybe held and resumed, paid,
/// packed by an effect, shipped and delivered by a timer; an unpaid one expires by a timer.
public enum ParcelState: String, Codable, Sendable, Hashable, CaseIterable {
    case placed, onHold, paid, shipped, delivered, expired, cancelled

    /// Whether the parcel's lifecycle ended.
    public var isFinal: Bool { [.delivered, .expired, .cancelled].contains(self) }
}

/// Its events.
public enum ParcelEvent: String, Codable, Sendable, Hashable {
    case note, hold, resume, pay, packed, cancel
}

/// Its context.
public struct Parcel: Codable, Sendable, Hashable {
    /// How many notes it was sent (the effect sends one too).
    public var notes = 0
    /// How many times it was held.
    public var holds = 0

    /// A new parcel.
    public init() {}
}

/// The parcel lifecycle and the events each key is sent.
public enum ParcelLifecycle {
    /// The durable machine's name.
    public static let name = "parcel"

    /// placed (expires after 1.5 s) ⇄ onHold (expires after 2.5 s); paid, whose effect notes
    /// and packs; shipped, delivered after 0.2 s; cancelled.
    public static let definition = StateMachineDefinition<ParcelState, ParcelEvent, Parcel>(initial: .placed) {
        In(.placed) {
            On(.note) { $0.notes += 1 }
            On(.hold, to: .onHold) { $0.holds += 1 }
            On(.pay, to: .paid)
            On(.cancel, to: .cancelled)
            After(.milliseconds(1_500), to: .expired)
        }
        In(.onHold) {
            On(.note) { $0.notes += 1 }
            On(.resume, to: .placed)
            After(.milliseconds(2_500), to: .expired)
        }
        In(.paid) {
            On(.note) { $0.notes += 1 }
            On(.packed, to: .shipped)
            On(.cancel, to: .cancelled)
            Effect("pack") { _, send in
                send.send(.note)
                send.send(.packed)
            }
        }
        In(.shipped) { After(.milliseconds(200), to: .delivered) }
        In(.delivered)
        In(.expired)
        In(.cancelled)
    }

    /// The queue a delivered parcel's notification goes to.
    public static let deliveries = "deliveries"

    /// The machine on `store`; with a `journal`, the step that delivers a parcel emits a
    /// ``NotifyDelivery`` onto ``deliveries``, under the key `parcel/<key>/<version>/0`.
    public static func machine(
        _ store: any MachineStore, journal: (any CommandJournal)? = nil
    ) -> DurableMachine<ParcelState, ParcelEvent, Parcel> {
        guard let journal else { return DurableMachine(name, definition: definition, store: store) }
        return DurableMachine(name, definition: definition, store: store, journal: journal) { step, _ in
            step.transitions.contains { $0.target == .delivered }
                ? [try MachineCommand(NotifyDelivery(), on: deliveries)] : []
        }
    }

    /// The registry a worker of ``deliveries`` runs with.
    public static var registry: CommandRegistry {
        var registry = CommandRegistry()
        registry.register(NotifyDelivery.self)
        return registry
    }

    /// The key of parcel `number`.
    public static func key(_ number: Int) -> String { "p\(number)" }

    /// The events parcel `number` is sent, in order, each with its id: a few notes; a hold
    /// and a resume (or a hold alone, to expire on hold); a payment (or none, to expire); a
    /// cancellation racing the effect.
    public static func plan(_ number: Int, seed: UInt64) -> [(id: String, event: ParcelEvent)] {
        var random = SplitMix64(seed: seed &* 1_000_003 &+ UInt64(number))
        var events: [ParcelEvent] = Array(repeating: .note, count: Int(random.next() % 3))
        let roll = random.next() % 100
        if roll < 10 {
            events += [.hold]
        } else {
            if roll < 40 { events += [.hold, .note, .resume] }
            if random.next() % 100 < 70 {
                events.append(.pay)
                if random.next() % 100 < 15 { events.append(.cancel) }
            }
        }
        return events.enumerated().map { (id: "\(key(number))/\($0.offset)", event: $0.element) }
    }
}
