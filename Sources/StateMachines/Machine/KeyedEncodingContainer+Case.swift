extension KeyedEncodingContainer {
    /// Encodes the name of an enumeration's case under `key` and what the case carries under
    /// `valueKey`: the form `decodeCase(_:forKey:)` and `decode(_:forKey:)` read back.
    mutating func encode<Case: Encodable, Value: Encodable>(
        _ name: Case, forKey key: Key, carrying value: Value, forKey valueKey: Key
    ) throws {
        try encode(name, forKey: key)
        try encode(value, forKey: valueKey)
    }
}
