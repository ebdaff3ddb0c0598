#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything one step of an instance changes, committed together or not at all: the new
/// snapshot and active states, the history row, the timers armed and disarmed, the effects
/// started and stopped, and (on a store that shares the journal's database) the commands the
/// step enqueues.
public struct MachineCommit: Hashable, Sendable {
    /// Which instance.
    public var key: MachineKey
    /// The version the step was computed from: 0 to start the instance (it must not exist).
    /// The commit applies only while the instance is still at this version.
    public var expectedVersion: Int64
    /// The encoded snapshot after the step.
    public var snapshot: [UInt8]
    /// The active states after the step, with when each was entered.
    public var states: [MachineStateEntry]
    /// The history row; its sequence is `expectedVersion + 1`, the new version.
    public var step: MachineStepRecord
    /// Timers to arm.
    public var armedTimers: [MachineTimerRecord]
    /// Ids of the instance's timers to delete (left states, fired timers).
    public var disarmedTimers: [String]
    /// Effects to start.
    public var startedEffects: [MachineEffectRecord]
    /// Ids of the instance's effects to delete (left states).
    public var stoppedEffects: [String]
    /// Commands the step emits, each with its key, enqueued on the machine's journal in this
    /// commit: only for a store that shares the journal's database
    /// (``MachineStore/enqueuesCommands(on:)``); others get them through the outbox.
    public var commands: [MachineCommand]

    /// Creates a commit.
    public init(
        key: MachineKey, expectedVersion: Int64, snapshot: [UInt8], states: [MachineStateEntry],
        step: MachineStepRecord, armedTimers: [MachineTimerRecord] = [], disarmedTimers: [String] = [],
        startedEffects: [MachineEffectRecord] = [], stoppedEffects: [String] = [], commands: [MachineCommand] = []
    ) {
        self.key = key
        self.expectedVersion = expectedVersion
        self.snapshot = snapshot
        self.states = states
        self.step = step
        self.armedTimers = armedTimers
        self.disarmedTimers = disarmedTimers
        self.startedEffects = startedEffects
        self.stoppedEffects = stoppedEffects
        self.commands = commands
    }

    /// The version the commit makes.
    public var version: Int64 { step.sequence }
}

/// What became of a ``MachineCommit``.
public enum MachineCommitResult: Hashable, Sendable {
    /// It committed: the instance is at the commit's version.
    case committed
    /// Nothing changed: the instance is not at the expected version (another writer committed
    /// first, or, for a start, it exists; `nil` when it does not exist).
    case versionConflict(current: Int64?)
    /// Nothing changed: a step with the same event id committed before; here it is.
    case duplicateEvent(MachineStepRecord)
}
