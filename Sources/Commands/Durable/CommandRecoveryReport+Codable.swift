extension CommandRecoveryReport: Codable {
    /// The keys of the encoded form: the properties' names.
    enum CodingKeys: String, CodingKey {
        case replayed, compensatedTransactions, completedTransactions, failed, leftPending, unreadable
    }

    /// Reads the form ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        replayed = try container.decode([String].self, forKey: .replayed)
        compensatedTransactions = try container.decode([String].self, forKey: .compensatedTransactions)
        completedTransactions = try container.decode([String].self, forKey: .completedTransactions)
        failed = try container.decode([String].self, forKey: .failed)
        leftPending = try container.decode([String].self, forKey: .leftPending)
        unreadable = try container.decode([CommandRegistryError].self, forKey: .unreadable)
    }

    /// Writes the keys settled each way under the properties' names, and each unreadable record
    /// as a ``CommandRegistryError``, so that a service can answer what its recovery did as JSON.
    ///
    /// ```swift
    /// try JSONEncoder().encode(try await invoker.recover())
    /// // {"replayed":["order-41"],"compensatedTransactions":["order-42"],…,"unreadable":[]}
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(replayed, forKey: .replayed)
        try container.encode(compensatedTransactions, forKey: .compensatedTransactions)
        try container.encode(completedTransactions, forKey: .completedTransactions)
        try container.encode(failed, forKey: .failed)
        try container.encode(leftPending, forKey: .leftPending)
        try container.encode(unreadable, forKey: .unreadable)
    }
}
