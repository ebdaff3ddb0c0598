/// A machine's configuration, history, context and pending timers, to save and restore
/// (`Codable` when the state and context are).
///
/// Snapshots are versioned: version 1 held only `state` and `context`, and still decodes.
public struct MachineSnapshot<State: Hashable & Sendable, Context: Sendable>: Sendable {
    /// The version this library writes.
    public static var currentVersion: Int { 2 }

    /// The version the snapshot was written with.
    public var version: Int
    /// The state the machine was in (in a statechart, its first active leaf).
    public var state: State
    /// Every active state in document order; empty means `state` alone (and, in a statechart,
    /// the states entering it enters).
    public var configuration: [State]
    /// What each history state held.
    public var history: [HistoryRecord<State>]
    /// The pending timers with their remaining times, when a runtime took the snapshot; `nil`
    /// when unknown (restore then re-arms every timer for its full delay).
    public var timers: [PendingTimer<State>]?
    /// The machine's context.
    public var context: Context
    /// When each state of ``configuration`` (or ``state``, when the configuration is empty) was
    /// entered, as the machine's entry count (``StateMachine/entryCount``), in the same order;
    /// `nil` when unknown. Restoring them keeps the identity of each visit, so that a timer or an
    /// effect saved with its ``TimerIdentity`` or ``EffectIdentity`` is still told from those of
    /// a later visit of the same state.
    public var visits: [UInt64]?
    /// When a runtime took the snapshot, as calendar time since 1970 (`nil` from a value
    /// machine): restoring it without an `elapsed` counts the time since then off its timers.
    public var takenAt: Duration?

    /// Creates a snapshot of one state and a context.
    public init(state: State, context: Context) {
        self.init(state: state, configuration: [], history: [], timers: nil, context: context)
    }

    /// Creates a snapshot of a whole configuration.
    public init(
        state: State, configuration: [State], history: [HistoryRecord<State>], timers: [PendingTimer<State>]?,
        context: Context
    ) {
        self.version = Self.currentVersion
        self.state = state
        self.configuration = configuration
        self.history = history
        self.timers = timers
        self.context = context
        self.visits = nil
        self.takenAt = nil
    }
}

/// What one history state held when a snapshot was taken.
public struct HistoryRecord<State: Hashable & Sendable>: Hashable, Sendable {
    /// The history state.
    public var history: State
    /// The states it remembers.
    public var states: [State]

    /// Creates a record.
    public init(history: State, states: [State]) {
        self.history = history
        self.states = states
    }
}

/// A timer that was armed when a snapshot was taken.
public struct PendingTimer<State: Hashable & Sendable>: Hashable, Sendable {
    /// The state whose timer it is.
    public var state: State
    /// Which of the state's timers, in the order written.
    public var index: Int
    /// How long it still had to run.
    public var remaining: Duration

    /// Creates a record.
    public init(state: State, index: Int, remaining: Duration) {
        self.state = state
        self.index = index
        self.remaining = remaining
    }
}

extension HistoryRecord: Codable where State: Codable {}
extension PendingTimer: Codable where State: Codable {}
extension MachineSnapshot: Equatable where Context: Equatable {}

extension MachineSnapshot: Codable where State: Codable, Context: Codable {
    enum CodingKeys: String, CodingKey {
        case version, state, configuration, history, timers, context, visits, takenAt
    }

    /// Reads a snapshot of any version up to ``currentVersion``; a version 1 snapshot (`state`
    /// and `context` only) reads as one with no configuration, history or timers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
        state = try container.decode(State.self, forKey: .state)
        configuration = try container.decodeIfPresent([State].self, forKey: .configuration) ?? []
        history = try container.decodeIfPresent([HistoryRecord<State>].self, forKey: .history) ?? []
        timers = try container.decodeIfPresent([PendingTimer<State>].self, forKey: .timers)
        context = try container.decode(Context.self, forKey: .context)
        visits = try container.decodeIfPresent([UInt64].self, forKey: .visits)
        takenAt = try container.decodeIfPresent(Int64.self, forKey: .takenAt).map { .milliseconds($0) }
    }

    /// Writes the snapshot with its version, so that a later library can still read it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(state, forKey: .state)
        try container.encode(configuration, forKey: .configuration)
        try container.encode(history, forKey: .history)
        try container.encodeIfPresent(timers, forKey: .timers)
        try container.encode(context, forKey: .context)
        try container.encodeIfPresent(visits, forKey: .visits)
        // Whole milliseconds since 1970: a calendar time, not a duration a reader must parse.
        let milliseconds = takenAt.map { time -> Int64 in
            let (whole, overflow) = time.components.seconds.multipliedReportingOverflow(by: 1_000)
            guard !overflow else { return time < .zero ? .min : .max }
            let (sum, late) = whole.addingReportingOverflow(time.components.attoseconds / 1_000_000_000_000_000)
            return late ? .max : sum
        }
        try container.encodeIfPresent(milliseconds, forKey: .takenAt)
    }
}

/// An error from restoring a machine.
public enum StateMachineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The snapshot names states that the definition does not have, by their descriptions.
    case unknownStates([String])
    /// The snapshot's configuration cannot be a configuration of this definition.
    case invalidConfiguration(String)
    /// The snapshot was written by a newer version of the library.
    case unsupportedVersion(Int)
    /// The runtime's own guard or action called this on it while it was running one.
    case reentrant(String)

    /// Names the problem and the offending states, version or call.
    public var description: String {
        switch self {
        case .unknownStates(let states):
            "the snapshot names states this definition does not have: \(states.map { "'\($0)'" }.joined(separator: ", "))"
        case .invalidConfiguration(let why): "the snapshot's configuration is impossible: \(why)"
        case .unsupportedVersion(let version):
            "the snapshot has version \(version); this library reads versions up to \(MachineSnapshot<Int, Int>.currentVersion)"
        case .reentrant(let call): "\(call) was called by the runtime's own guard or action while it was running one"
        }
    }
}
