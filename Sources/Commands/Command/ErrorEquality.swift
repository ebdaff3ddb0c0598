/// Whether two errors say the same: `==` when the first is `Equatable` (and the second of its
/// type), else the same type and the same description. For the `Equatable` conformances of
/// errors that carry `any Error`.
func errorsMatch(_ lhs: any Error, _ rhs: any Error) -> Bool {
    if let equatable = lhs as? any Equatable { return equatable.isEqual(to: rhs) }
    return type(of: lhs) == type(of: rhs) && String(reflecting: lhs) == String(reflecting: rhs)
}

extension Equatable {
    fileprivate func isEqual(to other: any Error) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
