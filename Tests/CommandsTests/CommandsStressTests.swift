import BehaviorKitSync
import Commands
import Testing

/// A document that many tasks edit at once: its history lives in the actor.
actor Document {
    let history = UndoHistory()

    func perform(_ command: any Command) async throws {
        try await history.perform(command)
    }

    func undo() async throws {
        try await history.undo()
    }

    var undoCount: Int { history.undoActionNames.count }

    func undoAll() async throws -> Int {
        try await history.undoAll()
    }

    func beginGroup(_ name: String) async {
        await history.beginGroup(name)
    }

    func endGroup() async throws {
        try await history.endGroup()
    }
}

/// Adds to a counter, suspending in the middle so that other tasks get in.
struct SlowAdd: Command {
    let counter: Counter
    var name: String { "slow add" }
    func execute() async throws {
        await Task.yield()
        counter.add(1)
    }
    func undo() async throws {
        await Task.yield()
        counter.add(-1)
    }
}

/// Many tasks at once: no command is lost or run twice. Run under ThreadSanitizer in CI.
struct CommandsStressTests {
    static let tasks = 8
    static let perTask = 200

    @Test func undoHistoryStressLosesNoCommand() async throws {
        let document = Document()
        let counter = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<Self.tasks {
                group.addTask {
                    for _ in 0..<Self.perTask { try await document.perform(SlowAdd(counter: counter)) }
                }
            }
            try await group.waitForAll()
        }
        #expect(counter.value == Self.tasks * Self.perTask)
        #expect(await document.undoCount == Self.tasks * Self.perTask)
        #expect(try await document.undoAll() == Self.tasks * Self.perTask)
        #expect(counter.value == 0)
    }

    @Test func undoHistoryStressWithUndosKeepsStateAndStacksInStep() async throws {
        let document = Document()
        let counter = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    for index in 0..<Self.perTask {
                        if (index + task) % 3 == 0 {
                            try? await document.undo()
                        } else {
                            try await document.perform(SlowAdd(counter: counter))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(counter.value == (await document.undoCount))
    }

    /// Tasks perform while one opens and closes groups: every command lands in one step or
    /// another, and undoing everything undoes every command.
    @Test func undoHistoryStressWithOpenGroupsLosesNoCommand() async throws {
        let document = Document()
        let counter = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<Self.tasks {
                group.addTask {
                    for _ in 0..<Self.perTask { try await document.perform(SlowAdd(counter: counter)) }
                }
            }
            group.addTask {
                for index in 0..<Self.perTask {
                    await document.beginGroup("group \(index)")
                    await Task.yield()
                    try await document.endGroup()
                }
            }
            try await group.waitForAll()
        }
        #expect(counter.value == Self.tasks * Self.perTask)
        _ = try await document.undoAll()
        #expect(counter.value == 0)
    }

    /// Transactions whose tasks cancel themselves mid-way, all at once: every reservation is
    /// released, by rollbacks running on their own tasks, racing their deadline's timers.
    @Test func cancelledTransactionsStressAllCompensate() async throws {
        let reserved = Counter()
        let policy = CompensationPolicy(retries: 1, deadline: .seconds(60))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<(Self.tasks * 25) {
                group.addTask {
                    let steps: [any Command] = [
                        ClosureCommand("reserve") {
                            reserved.add(1)
                        } undo: {
                            try await cancellableCall()
                            reserved.add(-1)
                        },
                        ClosureCommand("charge") {
                            withUnsafeCurrentTask { $0?.cancel() }
                            try await cancellableCall()
                        },
                    ]
                    _ = try? await Transaction("t", steps: steps, compensation: policy).run()
                }
            }
        }
        #expect(reserved.value == 0)
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
                    for _ in 0..<(Self.perTask / 4) { try await invoker.perform(SlowAdd(counter: counter)) }
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
