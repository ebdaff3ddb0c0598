import Commands

extension DurableMachine {
    /// The prefixes of the event ids a machine gives its own steps: a timer's (`timer:`), an
    /// effect's events (`effect:`) and a transaction's report (`report:`). A caller's id may not
    /// start with one, so that no caller's event is taken for a replay of the machine's own (a
    /// timer that would then never fire, a report swallowed).
    public static var reservedEventIDPrefixes: [String] { ["timer:", "effect:", "report:"] }

    /// The store's key of `key`, once it and the machine's name passed ``StoredKey``'s rule
    /// (kept exactly by every store, or refused with an `InvalidKeyError`).
    func machineKey(_ key: String) throws(InvalidKeyError) -> MachineKey {
        try StoredKey.check(name, "durable machine name")
        try StoredKey.check(key, "instance key")
        return MachineKey(machine: name, key: key)
    }

    /// `id` once it passed ``StoredKey``'s rule and starts with none of
    /// ``reservedEventIDPrefixes``.
    func callerEventID(_ id: String?) throws -> String? {
        guard let id else { return nil }
        try StoredKey.check(id, "event id")
        if let prefix = Self.reservedEventIDPrefixes.first(where: { id.hasPrefix($0) }) {
            throw DurableMachineError.reservedEventID(id, prefix: prefix)
        }
        return id
    }
}
