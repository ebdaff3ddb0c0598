import BehaviorKitSync
import Commands
import Testing

/// Many tasks at once: no command is lost or run twice. Run under ThreadSanitizer in CI.
struct CommandsStressTests {
    static let tasks = 8
    static let perTask = 200

    @Test func undoHistoryStressLosesNoCommand() async throws {
        let history = UndoHistory()
        let counter = Counter()
        await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<Self.tasks {
                group.addTask {
                    for _ in 0..<Self.perTask { try await history.perform(Add(counter: counter, amount: 1)) }
                }
                group.addTask {
                    for _ in 0..<(Self.perTask / 10) { _ = await history.status }
                }
            }
        }
        #expect(counter.value == Self.tasks * Self.perTask)
        #expect(await history.undoActionNames.count == Self.tasks * Self.perTask)
        #expect(try await history.undoAll() == Self.tasks * Self.perTask)
        #expect(counter.value == 0)
    }

    @Test func undoHistoryStressWithUndosKeepsStateAndStacksInStep() async throws {
        let history = UndoHistory()
        let counter = Counter()
        await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    for index in 0..<Self.perTask {
                        if (index + task) % 3 == 0 {
                            _ = try? await history.undo()
                        } else {
                            try await history.perform(Add(counter: counter, amount: 1))
                        }
                    }
                }
            }
        }
        #expect(counter.value == (await history.undoActionNames.count))
    }

    @Test func serialInvokerStressRunsEveryCommandOnceInOrder() async throws {
        let invoker = SerialInvoker(keepingOutcomes: Self.tasks * Self.perTask)
        let seen = LockedValue<[Int: [Int]]>([:])
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    for index in 0..<Self.perTask {
                        invoker.submit(
                            ClosureCommand("\(task).\(index)") { seen.withLock { $0[task, default: []].append(index) } }
                        )
                    }
                }
            }
        }
        await invoker.idle()
        #expect(invoker.finishedCount == Self.tasks * Self.perTask)
        #expect(invoker.outcomes.count == Self.tasks * Self.perTask)
        let runs = seen.withLock { $0 }
        for task in 0..<Self.tasks { #expect(runs[task] == Array(0..<Self.perTask)) }
    }

    @Test func serialInvokerStressPerformFromManyTasks() async throws {
        let invoker = SerialInvoker()
        let counter = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<Self.tasks {
                group.addTask {
                    for _ in 0..<(Self.perTask / 4) { try await invoker.perform(Add(counter: counter, amount: 1)) }
                }
            }
            try await group.waitForAll()
        }
        #expect(counter.value == Self.tasks * Self.perTask / 4)
    }

    @Test func batchInvokerStressRunsEveryCommandOnce() async throws {
        let invoker = BatchInvoker(batchSize: 7)
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<Self.tasks {
                group.addTask {
                    for _ in 0..<Self.perTask { invoker.submit(Add(counter: counter, amount: 1)) }
                }
            }
        }
        await invoker.flush()
        #expect(counter.value == Self.tasks * Self.perTask)
        #expect(invoker.finishedCount == Self.tasks * Self.perTask)
    }
}
