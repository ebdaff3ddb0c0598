import Benchmark
import Commands

// The Commands hot paths, each beside its floor: the same work written by hand, in the same run.
// Every sample does 1,000 operations (scalingFactor .kilo), so figures read per command or step.

/// A count only this benchmark's single task touches (so no lock: both sides pay the same).
final class Tally: @unchecked Sendable {
    var value = 0
}

/// The cheapest real command: bumps a count. Existential calls dominate, as they should.
struct Bump: Command {
    let tally: Tally
    var name: String { "bump" }
    func execute() async throws { tally.value &+= 1 }
    func undo() async throws { tally.value &-= 1 }
}

/// A command that carries only a value (a pointer to a count): no reference to share, so a
/// queue handing it from one thread to another moves no reference count between cores.
struct BumpSlot: Command, @unchecked Sendable {
    let slot: UnsafeMutablePointer<Int>
    var name: String { "bump" }
    func execute() async throws { slot.pointee &+= 1 }
    func undo() async throws { slot.pointee &-= 1 }
}

/// A step that always fails: the last step of the rollback benchmark.
struct FailingBump: Command {
    struct Failure: Error {}
    let tally: Tally
    var name: String { "fail" }
    func execute() async throws { throw Failure() }
    func undo() async throws { tally.value &-= 1 }
}

let operations = 1_000
let stepsPerTransaction = 10

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(3))

    let tally = Tally()
    let commands: [any Command] = (0..<operations).map { _ in Bump(tally: tally) }

    // UndoHistory: perform, undo and redo each command (per command: all three).
    Benchmark("UndoHistory.perform+undo+redo") { _ in
        let history = UndoHistory()
        for command in commands {
            try await history.perform(command)
            try await history.undo()
            try await history.redo()
        }
        blackHole(history)
    }

    // Floor: a plain array of existential commands as the undo stack, another as the redo stack.
    Benchmark("UndoHistory.perform+undo+redo.floor") { _ in
        var done: [any Command] = []
        var undone: [any Command] = []
        for command in commands {
            try await command.execute()
            done.append(command)
            undone.removeAll(keepingCapacity: true)
            let undo = done.removeLast()
            try await undo.undo()
            undone.append(undo)
            let redo = undone.removeLast()
            try await redo.execute()
            done.append(redo)
        }
        blackHole(done)
    }

    // Transaction.run: transactions of 10 steps (per step).
    let steps = Array(commands.prefix(stepsPerTransaction))
    let transaction = Transaction("bench", steps: steps)
    Benchmark("Transaction.run") { _ in
        for _ in 0..<(operations / stepsPerTransaction) {
            try await transaction.run()
        }
    }

    // Floor: the same steps in a hand-written loop with do/catch and reverse compensation.
    Benchmark("Transaction.run.floor") { _ in
        for _ in 0..<(operations / stepsPerTransaction) {
            var completed = 0
            do {
                while completed < steps.count {
                    try await steps[completed].execute()
                    completed += 1
                }
            } catch {
                for index in stride(from: completed - 1, through: 0, by: -1) { try? await steps[index].undo() }
                throw error
            }
        }
    }

    // Transaction.rollback: 10 steps whose last fails, so 9 compensations (per transaction).
    // The rollback runs on a task of its own (shielded from cancellation): this is its price.
    let failing: [any Command] = Array(commands.prefix(stepsPerTransaction - 1)) + [FailingBump(tally: tally)]
    let failingTransaction = Transaction("bench", steps: failing)
    Benchmark("Transaction.rollback", configuration: .init(scalingFactor: .one)) { benchmark in
        for _ in benchmark.scaledIterations {
            do { try await failingTransaction.run() } catch { blackHole(error) }
        }
    }

    // Floor: the same rollback inline, on the calling task.
    Benchmark("Transaction.rollback.floor", configuration: .init(scalingFactor: .one)) { benchmark in
        for _ in benchmark.scaledIterations {
            var completed = 0
            do {
                while completed < failing.count {
                    try await failing[completed].execute()
                    completed += 1
                }
            } catch {
                for index in stride(from: completed - 1, through: 0, by: -1) { try? await failing[index].undo() }
                blackHole(error)
            }
        }
    }

    // SerialInvoker.submit: a burst of 1,000 submissions from one task, then wait until all ran
    // (per command: submit, queue, execute, record the outcome).
    let invoker = SerialInvoker()
    Benchmark("SerialInvoker.submit") { _ in
        for command in commands { invoker.submit(command) }
        await invoker.idle()
    }

    // Floor: the commands executed in order on the submitting task: no queue at all.
    Benchmark("SerialInvoker.submit.floor") { _ in
        for command in commands { try await command.execute() }
    }

    // SerialInvoker.perform: each command waited for in turn; an idle invoker runs it at once on
    // the calling task (the synchronous fast path: no queue, no task switch).
    Benchmark("SerialInvoker.perform") { _ in
        for command in commands { try await invoker.perform(command) }
    }

    // The same with the whole burst in one call: one lock for the burst.
    Benchmark("SerialInvoker.submit(contentsOf:)") { _ in
        invoker.submit(contentsOf: commands)
        await invoker.idle()
    }

    // The invoker's own cost: commands that share no receiver (each submission above copies a
    // reference to the one shared `Tally` on the submitting thread, and the drain task
    // releases it on another core; here there is no such traffic).
    let slot = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    slot.initialize(to: 0)
    let valueCommands: [any Command] = (0..<operations).map { _ in BumpSlot(slot: slot) }
    Benchmark("SerialInvoker.submit.valueCommands") { _ in
        for command in valueCommands { invoker.submit(command) }
        await invoker.idle()
    }

    Benchmark("SerialInvoker.submit.valueCommands.floor") { _ in
        for command in valueCommands { try await command.execute() }
    }

    // Peer: the usual hand-made serial queue, an AsyncStream drained by one task.
    Benchmark("SerialInvoker.submit.peer.AsyncStream") { _ in
        let (stream, continuation) = AsyncStream.makeStream(of: (any Command).self)
        let drain = Task {
            for await command in stream { try? await command.execute() }
        }
        for command in commands { continuation.yield(command) }
        continuation.finish()
        await drain.value
    }
}
