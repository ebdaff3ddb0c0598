/// Which path `send` takes first for an event with a slot, decided once per definition.
@usableFromInline
enum DispatchMode: UInt8, Sendable {
    /// A flat machine with one-byte events: `FlatPlan.first` for the state and slot.
    case flat
    /// A statechart with one-byte events and plans: `ChartPlans.cells` for the configuration and slot.
    case planned
    /// Every event goes to the scan or the general statechart algorithm.
    case general
}
