/// One instance of one durable machine: the machine's name and the instance's key.
///
/// ```swift
/// let order = MachineKey(machine: "order", key: "order-42")
/// ```
public struct MachineKey: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The durable machine's name (one definition).
    public var machine: String
    /// The instance's key (one entity).
    public var key: String

    /// Creates a key.
    public init(machine: String, key: String) {
        self.machine = machine
        self.key = key
    }

    /// `machine/key`.
    public var description: String { "\(machine)/\(key)" }
}
