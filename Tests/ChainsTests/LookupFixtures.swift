import BehaviorKitSync
import Chains

/// A store that logs every call into a shared log, to check the order of write-backs.
final class RecordingStore: LookupStore, Sendable {
    let name: String
    let log: LockedValue<[String]>
    private let values = LockedValue<[Int: String]>([:])
    private let failsWrites: Bool

    init(_ name: String, log: LockedValue<[String]>, values: [Int: String] = [:], failsWrites: Bool = false) {
        self.name = name
        self.log = log
        self.failsWrites = failsWrites
        self.values.withLock { $0 = values }
    }

    func lookup(_ key: Int) async throws -> String? {
        log.withLock { $0.append("\(name).lookup(\(key))") }
        return values.withLock { $0[key] }
    }

    func store(_ value: String, for key: Int) async throws {
        log.withLock { $0.append("\(name).store(\(key))") }
        if failsWrites { throw TestFailure("\(name) is read-only") }
        values.withLock { $0[key] = value }
    }

    func remove(_ key: Int) async throws {
        log.withLock { $0.append("\(name).remove(\(key))") }
        values.withLock { $0[key] = nil }
    }

    var contents: [Int: String] { values.withLock { $0 } }
}

/// A source that counts its calls, answers from a table, and fails while told to.
final class CountingSource: LookupTier, Sendable {
    let name: String
    private let table: [Int: String]
    private let state = LockedValue((calls: 0, failing: false))
    private let gate: Gate?

    init(_ name: String, table: [Int: String], failing: Bool = false, gate: Gate? = nil) {
        self.name = name
        self.table = table
        self.gate = gate
        state.withLock { $0.failing = failing }
    }

    var calls: Int { state.withLock { $0.calls } }

    func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }

    func lookup(_ key: Int) async throws -> String? {
        let failing = state.withLock { state -> Bool in
            state.calls += 1
            return state.failing
        }
        if let gate { await gate.wait() }
        if failing { throw TestFailure("\(name) is down") }
        return table[key]
    }
}

/// Holds waiters until it is opened.
final class Gate: Sendable {
    private let state = LockedValue((open: false, waiters: [CheckedContinuation<Void, Never>]()))

    func wait() async {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}

struct TestFailure: Error, CustomStringConvertible, Equatable {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Holds waiters until it is opened; a waiting task that is cancelled throws `CancellationError`
/// and is counted.
final class CancellableGate: Sendable {
    private struct State {
        var open = false
        var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
        var nextID = 0
        var cancellations = 0
    }

    private let state = LockedValue(State())

    /// How many waits ended with a cancellation.
    var cancellations: Int { state.withLock { $0.cancellations } }

    func wait() async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case wait, pass, cancelled }
                let outcome = state.withLock { state -> Outcome in
                    if state.open { return .pass }
                    // Cancelled before the wait was registered: the handler below found nothing.
                    if Task.isCancelled {
                        state.cancellations += 1
                        return .cancelled
                    }
                    state.waiters[id] = continuation
                    return .wait
                }
                switch outcome {
                case .wait: break
                case .pass: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let waiter = state.waiters.removeValue(forKey: id) else { return nil }
                state.cancellations += 1
                return waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0.resume() }
    }
}

/// A source whose answer changes with each call (`v1`, `v2`, …), held by a gate while it is
/// closed.
final class ChangingSource: LookupTier, Sendable {
    let name = "source"
    private let callCount = LockedValue(0)
    let gate: CancellableGate

    init(gate: CancellableGate = CancellableGate()) {
        self.gate = gate
    }

    var calls: Int { callCount.withLock { $0 } }

    func lookup(_ key: Int) async throws -> String? {
        let call = callCount.withLock { calls -> Int in
            calls += 1
            return calls
        }
        try await gate.wait()
        return "v\(call)"
    }
}

/// A store that reads through `tier` and keeps nothing: a cache tier that can fail.
struct DiskLikeStore: LookupStore {
    let tier: LookupSource<Int, String>
    init(_ tier: LookupSource<Int, String>) { self.tier = tier }
    var name: String { tier.name }
    func lookup(_ key: Int) async throws -> String? { try await tier.lookup(key) }
    func store(_ value: String, for key: Int) async throws {}
    func remove(_ key: Int) async throws {}
}
