import BehaviorKitSync

extension Trigger: Codable where Event: Codable {
    /// The keys of the encoded form: the case, then what it carries.
    enum CodingKeys: String, CodingKey {
        case `case`, event, delayNanoseconds
    }

    /// The cases by the name the encoded form gives them.
    enum Case: String, Codable, CaseIterable {
        case event, timer, raised, eventless, done
    }

    /// Reads `{"case": "event", "event": …}`, `{"case": "timer", "delayNanoseconds": 5000000000}`,
    /// `{"case": "raised", "event": …}`, `{"case": "eventless"}` or `{"case": "done"}`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming an unknown case and the known ones.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decodeCase(Case.self, forKey: .case) {
        case .event: self = .event(try container.decode(Event.self, forKey: .event))
        case .timer: self = .timer(.nanoseconds(try container.decode(Int64.self, forKey: .delayNanoseconds)))
        case .raised: self = .raised(try container.decode(Event.self, forKey: .event))
        case .eventless: self = .eventless
        case .done: self = .done
        }
    }

    /// Writes the case and what it carries; a timer's delay in whole nanoseconds.
    ///
    /// ```swift
    /// try JSONEncoder().encode(Trigger<Push>.timer(.seconds(30)))
    /// // {"case":"timer","delayNanoseconds":30000000000}
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .event(let event): try container.encode(Case.event, forKey: .case, carrying: event, forKey: .event)
        case .timer(let delay):
            try container.encode(Case.timer, forKey: .case, carrying: delay.wholeNanoseconds, forKey: .delayNanoseconds)
        case .raised(let event): try container.encode(Case.raised, forKey: .case, carrying: event, forKey: .event)
        case .eventless: try container.encode(Case.eventless, forKey: .case)
        case .done: try container.encode(Case.done, forKey: .case)
        }
    }
}
