extension CommandRegistryError: Codable {
    /// The keys of the encoded form: the case, the command kind, the record's key, the reason,
    /// and the readable message.
    enum CodingKeys: String, CodingKey {
        case `case`, kind, key, reason, message
    }

    /// The cases by the name the encoded form gives them.
    enum Case: String, Codable, CaseIterable {
        case unregisteredKind, undecodablePayload, unencodableArguments
    }

    /// Reads the form ``encode(to:)`` writes; the message, derived from the rest, is not read.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming an unknown case and the known ones.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .case)
        guard let which = Case(rawValue: name) else {
            let known = Case.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                forKey: .case, in: container, debugDescription: "unknown case '\(name)'; expected one of \(known)")
        }
        let kind = try container.decode(String.self, forKey: .kind)
        let key = try container.decode(String.self, forKey: .key)
        switch which {
        case .unregisteredKind: self = .unregisteredKind(kind, key: key)
        case .undecodablePayload:
            self = .undecodablePayload(kind: kind, key: key, reason: try container.decode(String.self, forKey: .reason))
        case .unencodableArguments:
            self = .unencodableArguments(
                kind: kind, key: key, reason: try container.decode(String.self, forKey: .reason))
        }
    }

    /// Writes the case, the command kind, the record's key, the reason (where there is one) and,
    /// for people, the ``description`` as `message`.
    ///
    /// ```swift
    /// try JSONEncoder().encode(CommandRegistryError.unregisteredKind("old.kind", key: "k9"))
    /// // {"case":"unregisteredKind","kind":"old.kind","key":"k9","message":"record 'k9': the command type …"}
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .unregisteredKind(let kind, let key):
            try container.encode(Case.unregisteredKind, forKey: .case)
            try container.encode(kind, forKey: .kind)
            try container.encode(key, forKey: .key)
        case .undecodablePayload(let kind, let key, let reason):
            try container.encode(Case.undecodablePayload, forKey: .case)
            try container.encode(kind, forKey: .kind)
            try container.encode(key, forKey: .key)
            try container.encode(reason, forKey: .reason)
        case .unencodableArguments(let kind, let key, let reason):
            try container.encode(Case.unencodableArguments, forKey: .case)
            try container.encode(kind, forKey: .kind)
            try container.encode(key, forKey: .key)
            try container.encode(reason, forKey: .reason)
        }
        try container.encode(description, forKey: .message)
    }
}
