/// Why a ``CommandRegistry`` could not turn a record into a command, or a command into a record.
///
/// ```swift
/// report.unreadable.first?.description  // record 'k9': the command type 'old.kind' is not registered; …
/// ```
public enum CommandRegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No command type is registered under the kind.
    case unregisteredKind(String, key: String)
    /// The payload does not decode as the registered type.
    case undecodablePayload(kind: String, key: String, reason: String)
    /// The arguments could not be encoded.
    case unencodableArguments(kind: String, key: String, reason: String)

    /// The idempotency key of the record concerned.
    public var key: String {
        switch self {
        case .unregisteredKind(_, let key), .undecodablePayload(_, let key, _), .unencodableArguments(_, let key, _):
            key
        }
    }

    /// Names the kind, the key and the problem.
    public var description: String {
        switch self {
        case .unregisteredKind(let kind, let key):
            "record '\(key)': the command type '\(kind)' is not registered; the record is kept"
        case .undecodablePayload(let kind, let key, let reason):
            "record '\(key)': its payload does not decode as '\(kind)' (\(reason)); the record is kept"
        case .unencodableArguments(let kind, let key, let reason):
            "record '\(key)': cannot encode the arguments of '\(kind)' (\(reason))"
        }
    }
}
