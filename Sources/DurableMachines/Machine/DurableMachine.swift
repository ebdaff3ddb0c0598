import BehaviorKitSync
public import Commands
public import Logging
public import StateMachines

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A statechart whose instances are durable, keyed and shared by every process of a fleet: a
/// definition, a name and a store. An instance is a key.
///
/// ```swift
/// let orders = DurableMachine("order", definition: orderLifecycle, store: try SQLiteMachineStore(path: "app.db"))
/// try await orders.start("order-42", context: Order(total: 990))
/// let step = try await orders.send(.pay, to: "order-42", id: request.id)  // applied at most once
/// try await orders.runTimersAndEffects(owner: "web-1")                    // in one task per process
/// ```
///
/// - **One event at a time, at most once.** Each step is computed from the instance's latest
///   version and committed only while the instance is still at it, with its history row, the
///   timers it arms and disarms and the effects it starts and stops, all or nothing; a step that
///   lost the race is computed again. An event with an id is applied at most once: sending it
///   again answers the step recorded the first time. Refusals are steps too.
/// - **Durable timers.** `After` is a record due at an absolute time, for one visit of its state:
///   leaving the state deletes it in the same commit, so it never fires into a later visit.
///   Any worker fires it once; see ``MissedTimerPolicy`` for deadlines that passed while no
///   worker ran.
/// - **Durable effects.** An `Effect` of a durable state runs on one worker at a time under a
///   lease (taken over when that worker stops); each event it sends is delivered to its instance
///   at most once, and only while the visit that started it lasts.
/// - **Actions are pure.** Guards and actions may run more than once for one committed step (a
///   step that lost the race is computed again): they change the context and decide, and leave
///   side effects to effects and to the app.
public final class DurableMachine<
    State: Hashable & Sendable & Codable, Event: Hashable & Sendable & Codable, Context: Sendable & Codable
>: Sendable {
    /// The machine's name: one definition's instances in a store.
    public let name: String
    /// The definition new instances run: version ``definitionVersion``.
    public let definition: StateMachineDefinition<State, Event, Context>
    /// The version of ``definition``: an instance keeps the version it started with (written
    /// beside its snapshot) until ``upgrade(_:transform:)`` moves it to this one.
    public let definitionVersion: Int
    /// The definitions of earlier versions, by version, that instances started before still run.
    let earlierDefinitions: [Int: StateMachineDefinition<State, Event, Context>]
    /// Where instances, history, timers and effects are kept.
    public let store: any MachineStore
    /// The calendar clock timers are due by (every process that shares the store must agree on it).
    public let clock: any WallClock
    /// What a timer found late does.
    public let missedTimers: MissedTimerPolicy
    /// Reads a stored snapshot the definition cannot restore (states renamed or removed), or
    /// `nil` to refuse it with ``DurableMachineError/unknownStates(_:_:)``.
    let migrate: (@Sendable ([UInt8]) throws -> MachineSnapshot<State, Context>)?
    /// Reads a stored step the definition cannot read (states or events renamed), or `nil`:
    /// such a step is then left out of ``history(of:after:limit:)`` with a logged warning, and a
    /// replay of its event id answers without its transitions.
    let migrateStep: (@Sendable ([UInt8]) throws -> MachineStep<State, Event>)?
    /// The timers this process could not fire (see ``fireDueTimers(limit:)``), left out of
    /// later looks.
    let timersSetAside = LockedValue<Set<TimerReference>>([])
    /// A machine made once per process for each definition version, restored for each step, so
    /// that the initial state's entry actions are not run for every step.
    let templates = LockedValue<[Int: StateMachine<State, Event, Context>]>([:])
    /// The logger, metrics and tracer current when the machine was made.
    let instruments: DurableInstruments
    /// The journal the commands steps emit are enqueued on.
    public let journal: (any CommandJournal)?
    /// The durable commands a step emits (see ``MachineCommand``).
    let emit: (@Sendable (MachineStep<State, Event>, Context) throws -> [MachineCommand])?
    /// Whether `store` writes the commands of `emit` into `journal` in a step's own commit
    /// (``MachineStore/enqueuesCommands(on:)``), asked once.
    let commandsInCommit: Bool
    /// The event a transaction's end makes (see ``TransactionReport``); `nil`: none.
    let report: (@Sendable (TransactionReport) -> Event?)?
    /// Signalled when this process commits a step of this machine: wakes ``wait(for:state:timeout:pollInterval:clock:)``.
    let commits = WakeSignal()

    /// Creates a durable machine.
    ///
    /// - Parameters:
    ///   - name: the machine's name in `store` (instances of two definitions need two names).
    ///   - definition: what new instances run.
    ///   - version: the version of `definition` (1 by default). An instance keeps the version
    ///     it started with, stored beside its snapshot, until ``upgrade(_:transform:)``.
    ///   - earlierVersions: the definitions of earlier versions, by version, that the instances
    ///     started before run: a deploy of version 2 passes version 1 here while its instances
    ///     live. An instance of a version neither names is refused with
    ///     ``DurableMachineError/unknownDefinitionVersion(_:_:)``.
    ///   - store: where instances live: ``InMemoryMachineStore``, `SQLiteMachineStore`,
    ///     `PostgresMachineStore`.
    ///   - clock: the calendar clock timers are due by.
    ///   - missedTimers: what a timer found late does (fire, by default).
    ///   - migrate: reads a stored snapshot the definition cannot restore (renamed states).
    ///   - migrateStep: reads a stored step (history) the definition cannot read (renamed
    ///     states or events).
    ///   - logger: where the timer and effect loop logs the errors it waits out; `nil`: nowhere.
    ///   - report: the event the end of a transaction a step started (``MachineCommand/init(_:on:after:reportsBack:)``)
    ///     makes, delivered to the instance once; `nil` for none.
    ///   - journal: the journal whose queues the commands of `emit` go to.
    ///   - emit: the durable commands a step emits, given the step and the context after it:
    ///     enqueued on `journal` in the step's own commit when the store shares its database
    ///     (`SQLiteStore`'s or `PostgresStore`'s views; ``MachineStore/enqueuesCommands(on:)``); otherwise written in
    ///     the step's commit, then enqueued once on `journal` by the timer and effect loop (a
    ///     transactional outbox).
    ///
    /// With a swift-metrics backend bootstrapped before the machine is made, it counts steps
    /// (`behaviorkit_machine_steps_total`, by trigger and outcome) and lost races
    /// (`behaviorkit_machine_conflicts_total`), times events (`behaviorkit_machine_event_duration_seconds`)
    /// and timer lag (`behaviorkit_machine_timer_lag_seconds`), and gauges keys per state
    /// (`behaviorkit_machine_keys`, see ``recordKeysPerState()``); with a tracer, each event is a
    /// `behaviorkit.machine.send` span.
    public init(
        _ name: String, definition: StateMachineDefinition<State, Event, Context>, version: Int = 1,
        earlierVersions: [Int: StateMachineDefinition<State, Event, Context>] = [:], store: any MachineStore,
        clock: any WallClock = SystemWallClock(), missedTimers: MissedTimerPolicy = .fire,
        migrate: (@Sendable ([UInt8]) throws -> MachineSnapshot<State, Context>)? = nil,
        migrateStep: (@Sendable ([UInt8]) throws -> MachineStep<State, Event>)? = nil, logger: Logger? = nil,
        report: (@Sendable (TransactionReport) -> Event?)? = nil, journal: (any CommandJournal)? = nil,
        emit: (@Sendable (MachineStep<State, Event>, Context) throws -> [MachineCommand])? = nil
    ) {
        self.report = report
        self.instruments = DurableInstruments(logger: logger)
        self.journal = journal
        self.emit = emit
        self.commandsInCommit = journal.map { store.enqueuesCommands(on: $0) } ?? false
        self.name = name
        self.definition = definition
        self.definitionVersion = version
        self.earlierDefinitions = earlierVersions.filter { $0.key != version }
        self.store = store
        self.clock = clock
        self.missedTimers = missedTimers
        self.migrate = migrate
        self.migrateStep = migrateStep
    }

    /// The definition of `version`, which the instance `key` runs.
    ///
    /// - Throws: ``DurableMachineError/unknownDefinitionVersion(_:_:)``.
    func definition(version: Int, of key: MachineKey) throws -> StateMachineDefinition<State, Event, Context> {
        if version == definitionVersion { return definition }
        guard let earlier = earlierDefinitions[version] else {
            throw DurableMachineError.unknownDefinitionVersion(key, version)
        }
        return earlier
    }

    /// The time now, to the millisecond, as stores keep it.
    var now: Date { Date(journalMilliseconds: clock.currentDate.journalMilliseconds) }
}
