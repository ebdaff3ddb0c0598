import BehaviorKitSync

/// Queues commands and runs them in batches: when `batchSize` are queued, when the oldest has
/// waited `timeLimit` on the injected clock, or on ``flush()``.
///
/// Batches run one after another, each command in submission order, one at a time. Every
/// submitted command runs (an invoker released with a batch still pending runs it on its own
/// task); the invoker keeps how each ended.
///
/// ```swift
/// let invoker = BatchInvoker(batchSize: 5, timeLimit: .seconds(2), clock: ContinuousClock())
/// for command in commands { invoker.submit(command) }  // the fifth starts the batch
/// await invoker.flush()                                // runs what is left, waits for all
/// print(invoker.finishedCount, invoker.failedCount)
/// ```
public final class BatchInvoker<C: Clock<Duration>>: Sendable {
    private struct Pending {
        var commands: [any Command] = []
        var timer: Task<Void, Never>?
        var generation: UInt64 = 0
    }

    let core: InvokerCore
    private let pending = LockedValue(Pending())

    /// How many queued commands start a batch.
    public let batchSize: Int

    /// How long the oldest queued command waits before its batch starts anyway (`nil`: no limit).
    public let timeLimit: Duration?

    /// The clock the time limit is measured on.
    public let clock: C

    /// Creates a batch invoker.
    ///
    /// - Parameters:
    ///   - batchSize: how many queued commands start a batch (at least 1; smaller values count as 1).
    ///   - timeLimit: how long a queued command waits at most before its batch starts.
    ///   - clock: the clock for `timeLimit` (a `ManualClock` in tests).
    ///   - limit: how many outcomes to keep (the counts cover every one).
    public init(batchSize: Int, timeLimit: Duration? = nil, clock: C, keepingOutcomes limit: Int = 1_000) {
        self.batchSize = max(1, batchSize)
        self.timeLimit = timeLimit
        self.clock = clock
        self.core = InvokerCore(outcomeLimit: limit)
    }

    deinit {
        let leftover = pending.withLock { state -> [any Command] in
            state.timer?.cancel()
            return state.commands
        }
        core.enqueue(contentsOf: leftover)
    }

    /// Queues `command`; if it fills the batch, the batch starts (in the background: ``idle()``
    /// or ``flush()`` waits for it).
    public func submit(_ command: any Command) {
        let arm = pending.withLock { state -> UInt64? in
            state.commands.append(command)
            if state.commands.count >= batchSize {
                release(&state)
                return nil
            }
            if state.commands.count == 1, timeLimit != nil {
                state.generation &+= 1
                return state.generation
            }
            return nil
        }
        if let generation = arm, let timeLimit { armTimer(generation: generation, after: timeLimit) }
    }

    /// Starts the pending batch now, however small, and waits until every batch has run.
    public func flush() async {
        pending.withLock { release(&$0) }
        await core.idle()
    }

    /// Waits until every batch started so far has run (the pending one waits for its trigger).
    public func idle() async {
        await core.idle()
    }

    /// How many commands wait for their batch to start.
    public var pendingCount: Int { pending.withLock { $0.commands.count } }

    /// The last outcomes kept, oldest first.
    public var outcomes: [CommandOutcome] { core.outcomes }

    /// The commands kept that finished, oldest first.
    public var finished: [any Command] { outcomes.filter(\.isFinished).map(\.command) }

    /// The commands kept that failed, with their errors, oldest first.
    public var failed: [CommandOutcome] { outcomes.filter { !$0.isFinished } }

    /// How many commands finished since the invoker was made.
    public var finishedCount: Int { core.counts.finished }

    /// How many commands failed since the invoker was made.
    public var failedCount: Int { core.counts.failed }

    /// Hands the pending batch to the run queue, under the pending lock, so that batches keep
    /// their order and a batch is never between the two (invisible to `idle()`).
    private func release(_ state: inout Pending) {
        state.timer?.cancel()
        state.timer = nil
        state.generation &+= 1
        guard !state.commands.isEmpty else { return }
        core.enqueue(contentsOf: state.commands)
        state.commands = []
    }

    private func armTimer(generation: UInt64, after limit: Duration) {
        // The deadline is taken now, when the first command of the batch is queued, not when the
        // task gets to run: a late task must not stretch the limit.
        let deadline = clock.now.advanced(by: limit)
        let task = Task { [self] in
            try? await clock.sleep(until: deadline, tolerance: nil)
            pending.withLock { state in
                if state.generation == generation { release(&state) }
            }
        }
        pending.withLock { state in
            if state.generation == generation { state.timer = task } else { task.cancel() }
        }
    }
}

extension BatchInvoker where C == ContinuousClock {
    /// Creates a batch invoker whose time limit runs on the continuous clock.
    public convenience init(batchSize: Int, timeLimit: Duration? = nil, keepingOutcomes limit: Int = 1_000) {
        self.init(batchSize: batchSize, timeLimit: timeLimit, clock: ContinuousClock(), keepingOutcomes: limit)
    }
}
