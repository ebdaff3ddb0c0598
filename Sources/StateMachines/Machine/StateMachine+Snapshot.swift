/// A machine's state and context, to save and restore (`Codable` when both are).
public struct MachineSnapshot<State: Hashable & Sendable, Context: Sendable>: Sendable {
    /// The state the machine was in.
    public var state: State
    /// The machine's context.
    public var context: Context

    /// Creates a snapshot.
    public init(state: State, context: Context) {
        self.state = state
        self.context = context
    }
}

extension MachineSnapshot: Codable where State: Codable, Context: Codable {}
extension MachineSnapshot: Equatable where Context: Equatable {}

/// An error from restoring a machine.
public enum StateMachineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The snapshot names a state that the definition does not have.
    case unknownState(String)

    public var description: String {
        switch self {
        case .unknownState(let state): "the snapshot's state '\(state)' is not a state of this definition"
        }
    }
}

extension StateMachine {
    /// The current state and context.
    public var snapshot: MachineSnapshot<State, Context> {
        MachineSnapshot(state: state, context: context)
    }

    /// Puts the machine in the snapshot's state with its context, without running entry
    /// actions (the state was entered before the snapshot was taken). Timers are re-armed for
    /// their full delay.
    ///
    /// - Throws: ``StateMachineError/unknownState(_:)`` when the definition has no such state;
    ///   the machine is then unchanged.
    public mutating func restore(_ snapshot: MachineSnapshot<State, Context>) throws(StateMachineError) {
        guard let index = storage.index[snapshot.state] else {
            throw .unknownState("\(snapshot.state)")
        }
        stateIndex = index
        context = snapshot.context
        epoch &+= 1
    }
}
