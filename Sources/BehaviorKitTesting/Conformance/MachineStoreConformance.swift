public import DurableMachines
import StateMachines

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The checks every `MachineStore` must pass: the in-memory store here, a SQLite or a
/// PostgreSQL one elsewhere. They drive a small order lifecycle (placed → paid → shipped, a
/// timer that cancels an unpaid order, an effect that ships a paid one) through
/// `DurableMachine` and the store directly: starting, one event at a time per key (16
/// concurrent senders on one key), event ids applied at most once, refusals recorded, stale
/// versions refused, commits all or nothing, durable timers (due once, cancelled on leaving, never
/// into a later visit, missed-timer policy), effects (leases fenced by their token, events
/// delivered once and only to their visit), keys by state, history and its pruning, `update`
/// (a plan on what it reads; a throw changes nothing), unknown states, keys and event ids kept
/// exactly or refused (`StoredKey`), and callers' event ids kept apart from the machine's own.
///
/// ```swift
/// @Test func sqliteMachineStoreConforms() async throws {
///     try await MachineStoreConformance.check { try SQLiteMachineStore(path: temporaryFile()) }
/// }
/// ```
public enum MachineStoreConformance {
    /// Runs every check, each on a new, empty store from `makeStore`.
    public static func check(_ makeStore: () async throws -> any MachineStore) async throws {
        for check in checks {
            let store = try await makeStore()
            try await closing(store.close) { try await check(store, ManualClock()) }
        }
    }

    /// Runs `check`, then `close` whether it threw or not; throws what `check` threw, else what
    /// `close` threw.
    static func closing(_ close: () async throws -> Void, after check: () async throws -> Void) async throws {
        let result: Result<Void, any Error>
        do {
            try await check()
            result = .success(())
        } catch {
            result = .failure(error)
        }
        try await close()
        try result.get()
    }

    typealias Check = @Sendable (any MachineStore, ManualClock) async throws -> Void

    static var checks: [Check] {
        [
            startingCreatesOnceAndAnswersHowItStands, eventsForKeysNeverStartedAreRefused,
            eventsApplyInOrderAndMakeTheHistory, anEventIdIsAppliedAtMostOnce, refusalsAreRecorded,
            concurrentSendersOnOneKeyApplyEveryEventOnce, aStaleVersionIsRefused, aCommitIsAllOrNothing,
            aTimerFiresOnceWhenDue, leavingAStateCancelsItsTimer, computedAndGuardedDelaysWork,
            lateTimersFollowThePolicy, effectsRunUnderAFencedLease, effectEventsReachOnlyTheirVisit,
            keysAreIndexedByState, historyIsPrunedButTheLatestStepStays, unknownStatesAreNamed,
            anUpdatePlansOnWhatItReadsAndAThrowChangesNothing, keysAndIdsAreKeptExactlyOrRefused,
            callerEventIdsCannotReachTheMachinesOwn,
        ]
    }

    static func expect(_ condition: Bool, _ check: String, _ detail: @autoclosure () -> String) throws {
        if !condition { throw MachineStoreConformanceFailure(check: check, detail: detail()) }
    }
}

/// A rule of ``MachineStoreConformance`` a store broke, and what it did.
public struct MachineStoreConformanceFailure: Error, CustomStringConvertible, Sendable {
    /// The rule checked.
    public let check: String
    /// What the store did.
    public let detail: String

    /// "<check>: <detail>".
    public var description: String { "\(check): \(detail)" }
}
