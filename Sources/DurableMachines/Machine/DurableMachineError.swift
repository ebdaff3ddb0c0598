/// An error from a durable machine, naming the instance and the problem.
public enum DurableMachineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An event or a read for a key that was never started; nothing was created.
    case notStarted(MachineKey)
    /// The stored snapshot names states the definition no longer has (all of them, by name);
    /// give the machine a `migrate` hook to map old snapshots.
    case unknownStates(MachineKey, [String])
    /// The stored snapshot cannot be read or restored (the reason says why).
    case unreadableSnapshot(MachineKey, String)
    /// A value could not be encoded for the store (the reason says why); nothing was written.
    case encodingFailed(MachineKey, String)
    /// Other writers kept committing first: the step was computed and refused `attempts` times.
    case contention(MachineKey, attempts: Int)
    /// A step emitted durable commands, but the machine has no journal to enqueue them on.
    case commandsWithoutJournal(MachineKey)
    /// The instance runs a version of the definition the machine was not given (the version
    /// stored with it); pass that definition in `earlierVersions`, or upgrade the instance with
    /// a machine that has it.
    case unknownDefinitionVersion(MachineKey, Int)
    /// A caller's event id starts with a prefix the machine keeps for its own steps
    /// (``DurableMachine/reservedEventIDPrefixes``); nothing was sent.
    case reservedEventID(String, prefix: String)

    /// One line naming the instance and the problem.
    public var description: String {
        switch self {
        case .notStarted(let key): "durable machine '\(key.machine)' has no instance '\(key.key)': start it first"
        case .unknownStates(let key, let states):
            "the snapshot of \(key) names states the definition does not have: \(states.joined(separator: ", "))"
        case .unreadableSnapshot(let key, let reason): "the snapshot of \(key) cannot be read: \(reason)"
        case .encodingFailed(let key, let reason): "a step of \(key) cannot be encoded: \(reason)"
        case .contention(let key, let attempts): "\(key): \(attempts) attempts lost to other writers"
        case .commandsWithoutJournal(let key):
            "a step of \(key) emits commands, but the durable machine has no journal: pass one to its init"
        case .unknownDefinitionVersion(let key, let version):
            "\(key) runs version \(version) of the definition, which this machine was not given: pass it in "
                + "earlierVersions, or upgrade the instance"
        case .reservedEventID(let id, let prefix):
            "the event id \(id.debugDescription) starts with '\(prefix)', which the machine keeps for its own steps: "
                + "choose another id"
        }
    }
}
