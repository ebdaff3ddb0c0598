import BehaviorKitSync

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a running workflow does durably: its steps (`step(_:retry:_:)`, and with a
/// compensation `step(_:retry:_:compensate:)`), sleeps
/// (``sleep(for:)``, ``sleep(until:)``), received messages (``receive(_:topic:timeout:)``),
/// published events (``publish(_:as:)``) and patches (``patched(_:)``). Each call takes the
/// next position in the run and is written down there; when the run is taken up again (after
/// a crash, a sleep, or a wait for a message), every call answers from the journal what it
/// answered before, without running again, up to the first one not recorded.
///
/// Call them one at a time, in an order the input and the recorded answers decide: a run that
/// asks for something else at a position than the journal recorded stops with
/// ``WorkflowError/nondeterministic(key:position:recorded:requested:)``.
public final class WorkflowContext: Sendable {
    struct State {
        var position = 0
        /// The run waits: its record is released, due after this delay.
        var suspension: Duration?
        /// What ends the run whatever the function does: a determinism error (the run fails),
        /// a lost lease or a journal error (the run stops unsettled, to be taken up again).
        var stop: (any Error)?
        /// The mailbox the run waits on, when it waits in a receive: after its release, the
        /// worker looks there once more, for a message sent while the run was held.
        var mailbox: String?
        /// The messages this run consumed, by key.
        var consumed: Set<String>
        /// The child run the run waits for, when it waits in a child's result: after its
        /// release, the worker looks once more whether the child settled meanwhile.
        var awaitedChild: String?
        /// The mailboxes this attempt received from.
        var receivedFrom: Set<String> = []
        /// The consumed messages this attempt settled itself: the net before the run settles
        /// (``settleConsumedMessages()``) need not look for them.
        var settledHere: Set<String> = []
        /// The last step's settlement (and the run's compensations mark, with its first step
        /// that has a compensation), not yet written: it goes with the next write (before
        /// anything else runs), or with the run's own settlement.
        var unwritten: [CommandJournalChange] = []
        /// The compensations of the finished steps, in the order they finished.
        var compensations: [WorkflowCompensation] = []
        /// Whether the run carries its compensations mark, written or about to be.
        var compensable: Bool
    }

    /// The run's key.
    public let key: String
    /// The attempt's fencing token: greater for every later attempt at the run (each time a
    /// worker takes it up, after a crash, a sleep or a wait). The journal refuses the writes of
    /// an attempt once a later one began; pass it on to a partner that keeps the greatest it saw.
    public let fencingToken: Int
    let engine: Workflows
    let recorded: [Int: CommandJournalRecord]
    /// The journal's time when this attempt took the run: a deadline not yet passed then is
    /// waited for again.
    let claimedAt: Date
    /// Why the run rolls back, when it does (it was cancelled, or a rollback began): the
    /// function is run again only to answer from the journal what it recorded, gathering its
    /// steps' compensations; it stops at the first position not settled.
    let rollbackCause: String?
    let state: LockedValue<State>

    init(
        key: String, fencingToken: Int, engine: Workflows, recorded: [Int: CommandJournalRecord], claimedAt: Date,
        rollbackCause: String? = nil, compensable: Bool = false
    ) {
        self.key = key
        self.fencingToken = fencingToken
        self.engine = engine
        self.recorded = recorded
        self.claimedAt = claimedAt
        self.rollbackCause = rollbackCause
        var consumed: Set<String> = []
        for record in recorded.values where record.entry.kind == WorkflowRecord.receiveKind {
            if let delivery = try? StepOutput.decodeIfPresent(WorkflowDelivery.self, from: record.output, key: key),
                let messageKey = delivery.messageKey
            {
                consumed.insert(messageKey)
            }
        }
        self.state = LockedValue(State(consumed: consumed, compensable: compensable))
    }

    /// The worker that runs the attempt.
    public var owner: String { engine.invoker.owner }

    var journal: any CommandJournal { engine.journal }

    /// The attempt's lease: its writes commit only while the run holds this attempt.
    var lease: JournalLease { engine.invoker.lease(fencingToken) }

    /// Takes the next position, unless the run already waits or stopped.
    func next() throws -> Int { try position(taking: true) }

    /// The next position, taken when `taking`, unless the run already waits or stopped.
    func position(taking: Bool) throws -> Int {
        try state.withLock { state in
            if let stop = state.stop { throw stop }
            if let delay = state.suspension { throw WorkflowSuspension(delay: delay) }
            if rollbackCause != nil, recorded[state.position].map({ $0.status == .pending }) ?? true {
                // Rolling back: nothing new runs, nothing waits.
                state.stop = WorkflowRollbackReplay()
                throw WorkflowRollbackReplay()
            }
            defer { if taking { state.position += 1 } }
            return state.position
        }
    }

    /// Checks that the journal recorded, at `position`, what the run asks for now.
    func check(_ record: CommandJournalRecord, kind: String, name: String, at position: Int) throws {
        guard record.entry.kind != kind || record.entry.payload != Array(name.utf8) else { return }
        let error = WorkflowError.nondeterministic(
            key: key, position: position,
            recorded: WorkflowRecord.describe(
                kind: record.entry.kind, name: String(decoding: record.entry.payload, as: UTF8.self)),
            requested: WorkflowRecord.describe(kind: kind, name: name))
        throw stop(error)
    }

    /// Ends the run with `error`, whatever the function does next.
    func stop(_ error: any Error) -> any Error {
        state.withLock { state in
            if state.stop == nil { state.stop = error }
            return state.stop ?? error
        }
    }

    /// Makes the run wait `delay`, from the journal's time of its next write.
    func suspend(_ delay: Duration) -> WorkflowSuspension {
        state.withLock { state in
            if state.suspension == nil { state.suspension = max(delay, .milliseconds(1)) }
            return WorkflowSuspension(delay: state.suspension ?? delay)
        }
    }

    /// Runs a journal request; its failure stops the run (as a cancellation, when the run
    /// was cancelled: ``cancellation(or:)``).
    func journaled<T>(_ request: () async throws -> T) async throws -> T {
        do {
            return try await request()
        } catch {
            throw stop(await cancellation(or: error))
        }
    }

    /// ``WorkflowError/cancelled(key:reason:)`` when `error` (a refused write, a lost lease, a
    /// cancelled task) comes from a cancellation of the run, which took it from this attempt;
    /// otherwise `error`.
    func cancellation(or error: any Error) async -> any Error {
        guard error is CommandJournalError || error is CancellationError else { return error }
        let journal = journal
        let markKey = CommandJournalCancellation.key(of: key)
        // Read apart from this task, which a lost lease cancels.
        let mark = await Task { try? await journal.record(forKey: markKey) }.value
        guard let mark, let reason = CommandJournalCancellation.reason(of: mark.failureReason) else { return error }
        return WorkflowError.cancelled(key: key, reason: reason)
    }

    /// Writes the last step's settlement, if it waits: before the next step runs, so that
    /// after a crash no step but the last one run (and the one in flight) runs again.
    func flush() async throws {
        let changes = takeUnwritten()
        if changes.isEmpty { return }
        try await journaled { try await journal.settle(changes, lease: lease) }
    }

    /// The last step's settlement, if it waits, followed by `change`: to write in one commit.
    func changes(with change: CommandJournalChange) -> [CommandJournalChange] {
        takeUnwritten() + [change]
    }

    /// The last step's settlement, if it waits, which the caller now writes.
    func takeUnwritten() -> [CommandJournalChange] {
        state.withLock { state in
            defer { state.unwritten = [] }
            return state.unwritten
        }
    }

    /// The entry of the child at `position`.
    func entry(_ position: Int, kind: String, name: String) -> CommandJournalEntry {
        CommandJournalEntry(
            idempotencyKey: WorkflowRecord.childKey(key, position), kind: kind, payload: Array(name.utf8),
            parentKey: key)
    }
}

/// Thrown through a workflow's function run again to roll back, at its first position not
/// settled: nothing new runs; the compensations gathered so far are run.
struct WorkflowRollbackReplay: Error, CustomStringConvertible {
    var description: String { "the workflow rolls back: nothing new runs" }
}

/// Thrown through a workflow's function when its run waits (a sleep, a receive): the worker
/// releases the run, due after `delay`. A function that catches it still waits.
struct WorkflowSuspension: Error, CustomStringConvertible {
    let delay: Duration
    var description: String { "the workflow waits \(delay) in the journal" }
}
