import BehaviorKitSync

/// What a rollback did: the steps undone and those that were not, in the order it settled them.
struct CompensationReport: Sendable {
    var compensated: [TransactionError.Step] = []
    var failures: [TransactionError.CompensationFailure] = []
}

/// One rollback: undoes completed steps newest first, on a task of its own, so that the
/// cancellation of the task that ran the transaction does not reach the compensations; applies
/// the policy's retries, backoff, failure mode and deadline.
final class Rollback: Sendable {
    private struct State {
        /// The indices still to undo, oldest first: the next is the last.
        var pending: [Int]
        var report = CompensationReport()
        /// Set once the caller has its answer (the work finished, or the deadline passed).
        var settled = false
    }

    private let steps: ArraySlice<any Command>
    private let policy: CompensationPolicy
    private let observer: (@Sendable (TransactionEvent) -> Void)?
    private let state: LockedValue<State>

    /// Undoes `completed` in reverse (skipping steps that cannot be undone) under `policy`.
    static func run(
        _ completed: ArraySlice<any Command>, policy: CompensationPolicy,
        observer: (@Sendable (TransactionEvent) -> Void)?
    ) async -> CompensationReport {
        let pending = completed.indices.filter { completed[$0].canUndo }
        if pending.isEmpty { return CompensationReport() }
        let rollback = Rollback(completed, pending: pending, policy: policy, observer: observer)
        return await rollback.run()
    }

    private init(
        _ steps: ArraySlice<any Command>, pending: [Int], policy: CompensationPolicy,
        observer: (@Sendable (TransactionEvent) -> Void)?
    ) {
        self.steps = steps
        self.policy = policy
        self.observer = observer
        var state = State(pending: pending)
        state.report.compensated.reserveCapacity(pending.count)
        self.state = LockedValue(state)
    }

    private func run() async -> CompensationReport {
        let deadline = policy.deadline
        _ = await DeadlineRace.run(
            until: deadline.map { policy.clock.now + $0 }, on: policy.clock,
            expired: { deadline.map { self.settle(interruption: .deadlinePassed($0)) } }
        ) {
            await self.compensate()
            self.settle(interruption: nil)
        }
        return state.withLock { $0.report }
    }

    /// Settles the rollback once: the steps still pending are marked with `interruption`, and
    /// the compensations still running no longer count.
    private func settle(interruption: CompensationInterruption?) {
        state.withLock { state in
            if state.settled { return }
            state.settled = true
            guard let interruption else { return }
            for index in state.pending.reversed() {
                let step = TransactionError.Step(index: index, name: steps[index].name)
                state.report.failures.append(.init(step: step, error: interruption))
            }
            state.pending = []
        }
    }

    /// Undoes the pending steps one by one until none is left, or the rollback is settled.
    private func compensate() async {
        var next = state.withLock { $0.settled ? nil : $0.pending.last }
        while let index = next {
            let step = steps[index]
            let error = await undo(step, at: index)
            let (tell, following) = record(index, error: error)
            if tell {
                if let error {
                    observer?(.compensationFailed(index: index, command: step, error: error))
                } else {
                    observer?(.compensated(index: index, command: step))
                }
            }
            next = following
        }
    }

    /// Undoes `step`, retrying as the policy says; returns the last error, or `nil` when it was undone.
    private func undo(_ step: any Command, at index: Int) async -> (any Error)? {
        await policy.undo(step, at: index, observer: observer, check: { _ in }, stopped: { isSettled }) {
            try await step.undo()
        }
    }

    private var isSettled: Bool { state.withLock { $0.settled } }

    /// Records how the step at `index` ended (`error` is `nil` when it was undone); returns
    /// whether to tell the observer (not once the caller has its answer) and the next step to
    /// undo. A failure under ``CompensationPolicy/FailureMode/stopAtFirstFailure`` ends the
    /// rollback: the steps still pending are reported as not undone.
    private func record(_ index: Int, error: (any Error)?) -> (tell: Bool, next: Int?) {
        state.withLock { state in
            guard !state.settled, state.pending.last == index else { return (false, nil) }
            state.pending.removeLast()
            let step = TransactionError.Step(index: index, name: steps[index].name)
            guard let error else {
                state.report.compensated.append(step)
                return (true, state.pending.last)
            }
            state.report.failures.append(.init(step: step, error: error))
            if policy.failureMode == .stopAtFirstFailure {
                for rest in state.pending.reversed() {
                    let skipped = TransactionError.Step(index: rest, name: steps[rest].name)
                    state.report.failures.append(
                        .init(step: skipped, error: CompensationInterruption.stoppedAtFailure(step)))
                }
                state.pending = []
            }
            return (true, state.pending.last)
        }
    }
}
