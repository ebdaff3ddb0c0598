public import Commands

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Where durable machines keep their instances, history, timers and effects: in memory
/// (``InMemoryMachineStore``), in SQLite (`SQLiteMachineStore`) or in PostgreSQL
/// (`PostgresMachineStore`). Every store passes `MachineStoreConformance` from
/// BehaviorKitTesting.
///
/// A store knows nothing of definitions: it keeps bytes and names, and commits each step
/// atomically, checked against the version it was computed from. The version is the fence:
/// two processes that computed a step from one version never both commit.
public protocol MachineStore: Sendable {
    /// The instance of `key`, or `nil` when it was never started.
    func instance(_ key: MachineKey) async throws -> MachineInstanceRecord?

    /// The step of `key` whose event had `eventID`, or `nil`.
    func step(_ key: MachineKey, eventID: String) async throws -> MachineStepRecord?

    /// Commits `commit` atomically when the instance is at `commit.expectedVersion` and no step
    /// of it has the commit's event id; otherwise changes nothing and says why. Returns once the
    /// commit is durable.
    func commit(_ commit: MachineCommit) async throws -> MachineCommitResult

    /// Reads the instance of `key` (`nil` when it was never started) and commits what `plan`
    /// makes of it (`nil`: nothing to commit), with the plan's own result beside. A store that
    /// can runs `plan` inside its write transaction, so that no writer commits between the read
    /// and the commit (SQLite; in memory, under its lock); the default reads, then commits.
    /// `plan` must be quick and pure: a store may run it more than once, and a throw from it
    /// changes nothing.
    func update<Planned: Sendable>(
        _ key: MachineKey, _ plan: @escaping @Sendable (MachineInstanceRecord?) throws -> (MachineCommit, Planned)?
    ) async throws -> MachineUpdate<Planned>

    /// Up to `limit` timers of `machine` due at `date` or before, the earliest first.
    func dueTimers(machine: String, dueBy date: Date, limit: Int) async throws -> [MachineTimerRecord]

    /// The earliest due time among `machine`'s timers, or `nil` when none is armed.
    func nextTimerDue(machine: String) async throws -> Date?

    /// Atomically takes up to `limit` effects of `machine` that no live lease holds (never
    /// claimed, or their lease ended by `now`), for `owner` until `leaseExpiresAt`; each claim
    /// adds one to the effect's `attempts`, its fencing token. Two workers never hold one effect.
    func claimEffects(
        machine: String, owner: String, now: Date, leaseExpiresAt: Date, limit: Int
    ) async throws -> [MachineEffectRecord]

    /// Extends the lease of an effect `owner` holds at `attempts`; `false` when it no longer
    /// does (its state was left, or another worker took it over).
    func renewEffect(
        _ key: MachineKey, id: String, owner: String, attempts: Int, leaseExpiresAt: Date
    ) async throws -> Bool

    /// Deletes an effect that finished, when `owner` still holds it at `attempts`; `false`
    /// otherwise (nothing changed).
    func finishEffect(_ key: MachineKey, id: String, owner: String, attempts: Int) async throws -> Bool

    /// The instances of `machine` with `state` active, entered before `date` when given, in
    /// order of entry (then key), after `cursor` when given.
    func keys(
        machine: String, in state: String, enteredBefore date: Date?, after cursor: MachineStateEntry?, limit: Int
    ) async throws -> [MachineStateEntry]

    /// How many instances of `machine` have each state active (states with none are absent).
    func countsByState(machine: String) async throws -> [String: Int]

    /// The steps of `key` after `sequence`, oldest first.
    func history(_ key: MachineKey, after sequence: Int64, limit: Int) async throws -> [MachineStepRecord]

    /// Deletes the history rows of `machine` committed before `date`, except each instance's
    /// latest; returns how many. The event ids of pruned rows are forgotten: a retried event
    /// older than the pruning applies again.
    func pruneHistory(machine: String, before date: Date) async throws -> Int

    /// Finishes the writes under way and releases the store's connections.
    func close() async throws

    /// Whether the commands a step emits for `journal` are written into it in the step's own
    /// commit (``MachineCommit/commands``): `true` for a store that shares the journal's
    /// database (a `SQLiteStore`'s or a `PostgresStore`'s views). Otherwise they wait in the step's outbox until the
    /// timer and effect loop enqueues them (a relay). The default is `false`.
    func enqueuesCommands(on journal: any CommandJournal) -> Bool
}

extension MachineStore {
    /// Does nothing: a store without connections has nothing to release.
    public func close() async throws {}

    /// `false`: the commands wait in the outbox for the relay.
    public func enqueuesCommands(on journal: any CommandJournal) -> Bool { false }
}
