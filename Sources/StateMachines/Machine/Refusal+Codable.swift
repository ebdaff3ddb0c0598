extension Refusal: Codable where State: Codable, Event: Codable {
    /// The keys of the encoded form: the properties' names, and the readable message.
    enum CodingKeys: String, CodingKey {
        case state, event, reason, message
    }

    /// Reads the form ``encode(to:)`` writes; the message, derived from the rest, is not read.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            state: try container.decode(State.self, forKey: .state),
            event: try container.decode(Event.self, forKey: .event),
            reason: try container.decode(Reason.self, forKey: .reason))
    }

    /// Writes the state, the event, the reason (see ``Refusal/Reason``) and, for people, the
    /// ``description`` as `message`.
    ///
    /// ```swift
    /// try JSONEncoder().encode(machine.send(.open).refusal)
    /// // {"state":"open","event":"open","reason":{"case":"noTransition"},
    /// //  "message":"no transition for event 'open' in state 'open'"}
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state, forKey: .state)
        try container.encode(event, forKey: .event)
        try container.encode(reason, forKey: .reason)
        try container.encode(description, forKey: .message)
    }
}

extension Refusal.Reason: Codable {
    /// The keys of the encoded form: the case, then what it carries.
    enum CodingKeys: String, CodingKey {
        case `case`, guards, reason, steps
    }

    /// The cases by the name the encoded form gives them.
    enum Case: String, Codable, CaseIterable {
        case noTransition, guardFailed, rejected, finalState, endlessLoop, stopped, reentrant
    }

    /// Reads `{"case": "noTransition"}`, `{"case": "guardFailed", "guards": […]}`,
    /// `{"case": "rejected", "reason": "…"}`, `{"case": "endlessLoop", "steps": 100}`, and the
    /// other cases by name.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming an unknown case and the known ones.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decodeCase(Case.self, forKey: .case) {
        case .noTransition: self = .noTransition
        case .guardFailed: self = .guardFailed(try container.decode([String].self, forKey: .guards))
        case .rejected: self = .rejected(try container.decode(String.self, forKey: .reason))
        case .finalState: self = .finalState
        case .endlessLoop: self = .endlessLoop(try container.decode(Int.self, forKey: .steps))
        case .stopped: self = .stopped
        case .reentrant: self = .reentrant
        }
    }

    /// Writes the case and what it carries.
    ///
    /// ```swift
    /// try JSONEncoder().encode(Refusal<Door, Push>.Reason.guardFailed(["is unlocked"]))
    /// // {"case":"guardFailed","guards":["is unlocked"]}
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .noTransition: try container.encode(Case.noTransition, forKey: .case)
        case .guardFailed(let guards):
            try container.encode(Case.guardFailed, forKey: .case, carrying: guards, forKey: .guards)
        case .rejected(let reason):
            try container.encode(Case.rejected, forKey: .case, carrying: reason, forKey: .reason)
        case .finalState: try container.encode(Case.finalState, forKey: .case)
        case .endlessLoop(let steps):
            try container.encode(Case.endlessLoop, forKey: .case, carrying: steps, forKey: .steps)
        case .stopped: try container.encode(Case.stopped, forKey: .case)
        case .reentrant: try container.encode(Case.reentrant, forKey: .case)
        }
    }
}
