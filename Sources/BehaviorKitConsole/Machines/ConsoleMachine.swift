public import DurableMachines
public import StateMachines

/// A durable machine the console shows: its instances by state and a key's history, read from
/// its store. Registered with its definition, a key's history is drawn on the statechart; with
/// the store alone, it is a plain list.
///
/// ```swift
/// let machines = [ConsoleMachine(parcels), ConsoleMachine(name: "orders", store: store)]
/// ```
public struct ConsoleMachine: Sendable {
    /// The durable machine's name in its store.
    public let name: String
    /// The store its instances are kept in.
    public let store: any MachineStore
    /// The statechart, when a definition was given.
    let diagram: ConsoleDiagram?

    /// A machine read from `store` alone, without its definition: its history shows as a list.
    public init(name: String, store: any MachineStore) {
        self.name = name
        self.store = store
        self.diagram = nil
    }

    /// A machine whose instances run `definition`, kept in `store` under `name`: a key's history
    /// is drawn on the statechart.
    public init<State, Event, Context>(
        name: String, definition: StateMachineDefinition<State, Event, Context>, store: any MachineStore
    ) {
        self.name = name
        self.store = store
        self.diagram = ConsoleDiagram(definition)
    }

    /// The durable machine `machine`: its name, definition and store.
    public init<State, Event, Context>(_ machine: DurableMachine<State, Event, Context>) {
        self.init(name: machine.name, definition: machine.definition, store: machine.store)
    }
}
