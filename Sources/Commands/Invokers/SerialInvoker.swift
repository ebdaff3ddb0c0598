/// Runs commands one at a time, in the order they were submitted, from any task.
///
/// `submit` never waits: it queues the command and returns. One drain task runs the queue,
/// taking every queued command at once, so a burst of submissions costs one task. Every
/// submitted command runs; the invoker keeps how each ended.
///
/// ```swift
/// let invoker = SerialInvoker()
/// invoker.submit(saveToDB)            // queued; runs soon
/// try await invoker.perform(addToAPI) // queued after it; waits for it and rethrows its error
/// await invoker.idle()                // every submitted command has run
/// print(invoker.finishedCount, invoker.failedCount)
/// ```
public final class SerialInvoker: Sendable {
    let core: InvokerCore

    /// Creates an invoker that keeps the last `limit` outcomes (the counts cover every one).
    public init(keepingOutcomes limit: Int = 1_000) {
        core = InvokerCore(outcomeLimit: limit)
    }

    /// Queues `command` to run after every command submitted before it.
    public func submit(_ command: consuming any Command) {
        core.enqueue(command)
    }

    /// Queues `commands` in order, under one acquisition of the lock.
    public func submit(contentsOf commands: some Sequence<any Command>) {
        core.enqueue(contentsOf: commands)
    }

    /// Runs `command` after every command submitted before it, and waits until it has run.
    ///
    /// When nothing is queued or running, the command runs at once on the caller's task: no
    /// queue, no task switch (the synchronous fast path).
    ///
    /// - Throws: what the command's `execute()` threw (the outcome is kept as well).
    public func perform(_ command: any Command) async throws {
        if core.beginInline() {
            do {
                try await command.execute()
            } catch {
                core.endInline(.failed(command, error: error))
                throw error
            }
            core.endInline(.finished(command))
            return
        }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            core.enqueue(command, waiter: continuation)
        }
    }

    /// Waits until every command submitted so far has run.
    public func idle() async {
        await core.idle()
    }

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

    /// How many submitted commands have not finished running yet.
    public var pendingCount: Int { core.counts.waiting }
}
