/// An event that carries data, matched by its kind whatever its payload.
///
/// Conform your event enum and give each case a kind: rules written with a kind (`On(.pay)`)
/// take every `.pay(cents:)`, and guards and actions read the payload from the event they get.
/// Rules written with a whole event (`On(.cancel)`) still match that exact event.
///
/// ```swift
/// enum Checkout: PayloadEvent {
///     case pay(cents: Int), cancel
///     enum Kind: Hashable, Sendable { case pay, cancel }
///     var kind: Kind {
///         switch self {
///         case .pay: .pay
///         case .cancel: .cancel
///         }
///     }
/// }
///
/// In(.open) {
///     On(.pay, to: .paid) { order, event in
///         if case .pay(let cents) = event { order.paid += cents }
///     }
/// }
/// ```
public protocol PayloadEvent: Hashable, Sendable {
    /// What rules match on: one value per case, without the payload.
    associatedtype Kind: Hashable & Sendable
    /// This event's kind.
    var kind: Kind { get }
}

/// What a rule matches, before the definition is compiled.
enum RuleMatch<Event: Hashable & Sendable>: Sendable {
    case event(Event)
    case kind(KindKey, label: String)
    case eventless
    case done
}

/// What triggers a rule, as ``TransitionRule/trigger`` shows it.
public enum RuleTrigger<Event: Hashable & Sendable>: Hashable, Sendable {
    /// Exactly this event.
    case event(Event)
    /// Any event of this kind (see ``PayloadEvent``), named by the kind's description.
    case kind(String)
    /// No event: the rule is taken as soon as its guard holds (see ``Always``).
    case eventless
    /// The state's completion: every region (or its child) reached a final state (see ``OnDone``).
    case done
}

extension RuleTrigger: CustomStringConvertible {
    /// The event, or the kind of event, as diagrams and messages show it.
    public var description: String {
        switch self {
        case .event(let event): "\(event)"
        case .kind(let kind): "\(kind)"
        case .eventless: "always"
        case .done: "done"
        }
    }
}

/// A kind as a rule holds it: the kinds of a ``PayloadEvent`` are `Sendable`, so the box is too.
struct KindKey: Hashable, @unchecked Sendable {
    let value: AnyHashable
}
