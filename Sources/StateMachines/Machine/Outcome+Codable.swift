extension Outcome: Codable where State: Codable, Event: Codable {
    /// The keys of the encoded form: the case, then the transition or the refusal.
    enum CodingKeys: String, CodingKey {
        case `case`, transition, refusal
    }

    /// The cases by the name the encoded form gives them.
    enum Case: String, Codable, CaseIterable {
        case transitioned, refused
    }

    /// Reads `{"case": "transitioned", "transition": …}` or `{"case": "refused", "refusal": …}`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming an unknown case and the known ones.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decodeCase(Case.self, forKey: .case) {
        case .transitioned: self = .transitioned(try container.decode(Transition.self, forKey: .transition))
        case .refused: self = .refused(try container.decode(Refusal.self, forKey: .refusal))
        }
    }

    /// Writes the case and the ``Transition`` or the ``Refusal``, so that an outcome can be
    /// answered as JSON.
    ///
    /// ```swift
    /// try JSONEncoder().encode(machine.send(.open))
    /// // {"case":"refused","refusal":{"state":"open","event":"open","reason":{"case":"noTransition"},…}}
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .transitioned(let transition):
            try container.encode(Case.transitioned, forKey: .case, carrying: transition, forKey: .transition)
        case .refused(let refusal):
            try container.encode(Case.refused, forKey: .case, carrying: refusal, forKey: .refusal)
        }
    }
}
