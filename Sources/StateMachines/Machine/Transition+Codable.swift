extension Transition: Codable where State: Codable, Event: Codable {
    /// The keys of the encoded form: the properties' names.
    enum CodingKeys: String, CodingKey {
        case source, target, trigger, isInternal
    }

    /// Reads the form ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            source: try container.decode(State.self, forKey: .source),
            target: try container.decode(State.self, forKey: .target),
            trigger: try container.decode(Trigger<Event>.self, forKey: .trigger),
            isInternal: try container.decode(Bool.self, forKey: .isInternal))
    }

    /// Writes the source, the target, the trigger (see ``Trigger``) and whether it was internal.
    ///
    /// ```swift
    /// try JSONEncoder().encode(machine.send(.open).transition)
    /// // {"source":"closed","target":"open","trigger":{"case":"event","event":"open"},"isInternal":false}
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(target, forKey: .target)
        try container.encode(trigger, forKey: .trigger)
        try container.encode(isInternal, forKey: .isInternal)
    }
}
