/// Gathers the writes that arrive while one is being committed, and commits them together: one
/// transaction and one flush for the lot. Each caller is answered when its batch is durable.
/// The SQLite and PostgreSQL journals share it.
///
/// One drain task runs at a time (up to `maximumInFlight`, each with its own batch, when the
/// store's server commits batches side by side); it takes everything waiting, commits it,
/// answers, and takes again until nothing waits. A submitter that asks (``WriteQueued``) is told once its write
/// waits in the queue. Made with `commitsLoneWritesInCaller`, a write submitted while nothing
/// commits or waits is committed by its caller's own task, a batch of one (no hop to a drain
/// task and back), unless its submitter asks to be told (its next write is to join it); what
/// arrives meanwhile waits for a drain task, started once it is done.
package final class GroupCommit<Operation: Sendable, Output: Sendable>: Sendable {
    package typealias Commit = @Sendable ([Operation]) async -> [Result<Output, any Error>]

    private struct Waiter: Sendable {
        let operation: Operation
        let answer: Answer
        /// Whether its batch commits with no other beside it: a member of a ``submitAll(_:)`` or a
        /// write whose submitter was told it is queued (``WriteQueued``), which the writes that
        /// follow may depend on the order of, or a write that `runsAlone`.
        var ordered = false
    }

    /// Where a waiter's result goes: its own caller, or its place in a ``submitAll(_:)``.
    private enum Answer: Sendable {
        case caller(CheckedContinuation<Output, any Error>)
        case member(Members, Int)

        func callAsFunction(_ result: Result<Output, any Error>) {
            switch self {
            case .caller(let continuation): continuation.resume(with: result)
            case .member(let members, let index): members.answer(index, result)
            }
        }
    }

    /// The results of one ``submitAll(_:)``, gathered until the last comes in.
    private final class Members: Sendable {
        private let results: LockedValue<(results: [Result<Output, any Error>?], missing: Int)>
        private let continuation: CheckedContinuation<[Result<Output, any Error>], Never>

        init(count: Int, continuation: CheckedContinuation<[Result<Output, any Error>], Never>) {
            self.results = LockedValue((Array(repeating: nil, count: count), count))
            self.continuation = continuation
        }

        func answer(_ index: Int, _ result: Result<Output, any Error>) {
            let all = results.withLock { state -> [Result<Output, any Error>]? in
                state.results[index] = result
                state.missing -= 1
                return state.missing == 0 ? state.results.map { $0 ?? .failure(Closed()) } : nil
            }
            if let all { continuation.resume(returning: all) }
        }
    }

    private struct State {
        var waiting: [Waiter] = []
        /// The drain tasks running (or the caller committing alone): each commits one batch at a time.
        var drains = 0
        /// Whether a batch under way holds an ordered write (``Waiter/ordered``): no other starts then.
        var exclusive = false
        var draining: Bool { drains > 0 }
        var batches = 0
        var operations = 0
        var closed = false
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// A write submitted after ``close()``.
    package struct Closed: Error {}

    private let state = LockedValue(State())
    private let commit: Commit
    private let maximumBatch: Int
    private let commitsLoneWritesInCaller: Bool
    private let maximumInFlight: Int
    private let runsAlone: @Sendable (Operation) -> Bool

    /// Creates a group commit running `commit` on batches of at most `maximumBatch` operations.
    /// With `commitsLoneWritesInCaller`, a write that finds the group commit idle runs `commit`
    /// in its caller's task (whose cancellation `commit` must then ignore, as a drain task's).
    /// With `maximumInFlight` above 1, up to that many batches commit at once (a store whose
    /// server runs them side by side): the writes that arrive while one commits go in the next at
    /// once, not after it. A batch with an ordered write — a member of ``submitAll(_:)``, one
    /// whose submitter was told it is queued (what follows it must commit after it), or one that
    /// `runsAlone` (whose locks could deadlock with another batch's) — commits with none beside it.
    package init(
        maximumBatch: Int = 1024, commitsLoneWritesInCaller: Bool = false, maximumInFlight: Int = 1,
        runsAlone: @escaping @Sendable (Operation) -> Bool = { _ in false }, commit: @escaping Commit
    ) {
        self.maximumBatch = maximumBatch
        self.commitsLoneWritesInCaller = commitsLoneWritesInCaller
        self.maximumInFlight = max(1, maximumInFlight)
        self.runsAlone = runsAlone
        self.commit = commit
    }

    /// Whether another drain may start now, for a write that is `ordered` or not: none runs, or
    /// fewer than `maximumInFlight`, none holds an ordered write and this one is not.
    private func startsAnother(_ state: State, ordered: Bool) -> Bool {
        state.drains == 0 || (!ordered && state.drains < maximumInFlight && !state.exclusive)
    }

    /// The batches committed, and the operations in them.
    package var counts: (batches: Int, operations: Int) { state.withLock { ($0.batches, $0.operations) } }

    /// Submits `operation` and waits until the batch holding it is committed. When no commit is
    /// under way and the submitter is told once it is queued (``WriteQueued/signal``), its commit
    /// is held back for the write that follows (``WriteQueued/heldBy``), if it says so.
    package func submit(_ operation: Operation) async throws -> Output {
        let told = WriteQueued.signal?.isPending == true
        let held = told ? WriteQueued.heldBy : nil
        let ordered = told || (maximumInFlight > 1 && runsAlone(operation))
        // A submitter told once its write is queued means its next write to join it: not alone.
        if commitsLoneWritesInCaller, !told, let alone = try await commitAlone(operation, ordered: ordered) {
            return try alone.get()
        }
        return try await withCheckedThrowingContinuation { continuation in
            let startsDrain = state.withLock { state -> Bool? in
                if state.closed { return nil }
                state.waiting.append(Waiter(operation: operation, answer: .caller(continuation), ordered: ordered))
                guard startsAnother(state, ordered: ordered) else { return false }
                if !state.draining, let held, held.hold({ self.startHeld() }) { return false }
                state.drains += 1
                return true
            }
            guard let startsDrain else {
                continuation.resume(throwing: Closed())
                return
            }
            if startsDrain { startDrain() }
            WriteQueued.signal?()
        }
    }

    /// Commits `operation` in the caller's task when nothing commits or waits (`nil` otherwise:
    /// it is submitted as any other), with no batch beside it when it is `ordered`; then hands
    /// what arrived meanwhile to a drain task.
    private func commitAlone(_ operation: Operation, ordered: Bool) async throws -> Result<Output, any Error>? {
        let alone = state.withLock { state -> Bool? in
            if state.closed { return nil }
            guard !state.draining, state.waiting.isEmpty else { return false }
            state.drains += 1
            state.exclusive = ordered
            state.batches += 1
            state.operations += 1
            return true
        }
        guard let alone else { throw Closed() }
        guard alone else { return nil }
        let result = await commit([operation]).first ?? .failure(Closed())
        let startsDrain = state.withLock { state -> Bool in
            if ordered { state.exclusive = false }
            guard state.waiting.isEmpty else { return true }  // this drain goes on in a task
            state.drains -= 1
            if state.drains == 0 {
                state.closeWaiters.forEach { $0.resume() }
                state.closeWaiters = []
            }
            return false
        }
        if startsDrain { startDrain() }
        return result
    }

    /// Submits `operations` in their order, as one caller, and waits until every batch holding
    /// one of them is committed; answers each one's result in the same order. They go into the
    /// batches of at most `maximumBatch` like any other writes (so many of them fill whole
    /// batches, one commit each), never reordered among themselves.
    package func submitAll(_ operations: [Operation]) async -> [Result<Output, any Error>] {
        guard !operations.isEmpty else { return [] }
        return await withCheckedContinuation { continuation in
            let members = Members(count: operations.count, continuation: continuation)
            let startsDrain = state.withLock { state -> Bool? in
                if state.closed { return nil }
                for (index, operation) in operations.enumerated() {
                    state.waiting.append(Waiter(operation: operation, answer: .member(members, index), ordered: true))
                }
                guard startsAnother(state, ordered: true) else { return false }
                state.drains += 1
                return true
            }
            guard let startsDrain else {
                continuation.resume(returning: operations.map { _ in .failure(Closed()) })
                return
            }
            if startsDrain { startDrain() }
            WriteQueued.signal?()
        }
    }

    /// Starts the drain for the writes held back (``submit(_:)``), unless one runs.
    private func startHeld() {
        let starts = state.withLock { state in
            guard !state.draining, !state.waiting.isEmpty else { return false }
            state.drains += 1
            return true
        }
        if starts { startDrain() }
    }

    /// Starts the drain task, detached: it carries no submitter's task-local values (a
    /// ``WriteQueued`` signal is its submitter's alone).
    private func startDrain() {
        Task.detached { await self.drain() }
    }

    /// Refuses new writes (they throw ``Closed``) and returns once every write already
    /// submitted is committed and answered.
    package func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (idle, startsDrain) = state.withLock { state -> (Bool, Bool) in
                state.closed = true
                if !state.draining && state.waiting.isEmpty { return (true, false) }
                state.closeWaiters.append(continuation)
                // Writes held back (``submit(_:)``) commit now.
                let startsDrain = !state.draining
                if startsDrain { state.drains += 1 }
                return (false, startsDrain)
            }
            if idle { continuation.resume() }
            if startsDrain { startDrain() }
        }
    }

    /// Takes the next batch and commits it, until nothing waits, or until the batches of other
    /// drains under way hold an ordered write (``Waiter/ordered``) or this batch would: their
    /// drains take what waits once they are done. Starts another drain when writes are left
    /// waiting and one may (``startsAnother(_:ordered:)``).
    private func drain() async {
        var ordered = false
        while true {
            let (batch, another) = state.withLock { state -> ([Waiter], Bool) in
                if ordered { state.exclusive = false }
                var batch = Array(state.waiting.prefix(maximumBatch))
                let alone = state.drains == 1
                if !alone && (state.exclusive || batch.contains { $0.ordered }) { batch = [] }
                state.waiting.removeFirst(batch.count)
                if batch.isEmpty {
                    state.drains -= 1
                    if state.drains == 0 {
                        state.closeWaiters.forEach { $0.resume() }
                        state.closeWaiters = []
                    }
                    return ([], false)
                }
                ordered = batch.contains { $0.ordered }
                if ordered { state.exclusive = true }
                state.batches += 1
                state.operations += batch.count
                let another = state.waiting.first.map { startsAnother(state, ordered: $0.ordered) } ?? false
                if another { state.drains += 1 }
                return (batch, another)
            }
            if batch.isEmpty { return }
            if another { startDrain() }
            // Not `\.operation`: a key path into a generic type is made at each call.
            let results = await commit(batch.map { $0.operation })
            for (waiter, result) in zip(batch, results) { waiter.answer(result) }
        }
    }
}
