/// Reads the kind of a ``PayloadEvent`` as an index among the kinds a definition's rules name,
/// so that matching a rule is an integer comparison.
@usableFromInline
final class KindReader<Event>: Sendable {
    /// The kind's index; `nil` for a kind no rule names.
    @usableFromInline let read: @Sendable (Event) -> Int?

    init(read: @escaping @Sendable (Event) -> Int?) {
        self.read = read
    }

    /// A reader when `Event` is a ``PayloadEvent``; `nil` otherwise.
    static func make(_ type: Event.Type, kinds: [AnyHashable]) -> KindReader? {
        guard let payloadType = type as? any PayloadEvent.Type else { return nil }
        return open(payloadType, kinds: kinds)
    }

    private static func open<Payload: PayloadEvent>(_ type: Payload.Type, kinds: [AnyHashable]) -> KindReader? {
        let typed = kinds.map { $0.base as? Payload.Kind }
        let read: @Sendable (Payload) -> Int? = { event in
            let kind = event.kind
            return typed.firstIndex { $0 == kind }
        }
        guard let reader = read as? @Sendable (Event) -> Int? else { return nil }
        return KindReader(read: reader)
    }
}
