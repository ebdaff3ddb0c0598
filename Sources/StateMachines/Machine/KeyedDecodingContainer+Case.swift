extension KeyedDecodingContainer {
    /// Decodes the name of an enumeration's case, or throws `DecodingError.dataCorrupted`
    /// naming the unknown name and the known ones.
    func decodeCase<Case: RawRepresentable & CaseIterable>(_ type: Case.Type, forKey key: Key) throws -> Case
    where Case.RawValue == String {
        let name = try decode(String.self, forKey: key)
        guard let value = Case(rawValue: name) else {
            let known = Case.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "unknown case '\(name)'; expected one of \(known)")
        }
        return value
    }
}
