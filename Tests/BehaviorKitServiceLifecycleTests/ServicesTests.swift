import BehaviorKitSQLite
import BehaviorKitServiceLifecycle
import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import ServiceLifecycle
import ServiceLifecycleTestKit
import StateMachines
import Testing

struct ServicesTests {
    let clock = ManualClock()

    @Test func aQueueWorkerServiceDrainsOnAGracefulShutdown() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let gate = AsyncGate()
        let done = LockedValue<[String]>([])
        var registry = CommandRegistry()
        registry.register("test.slow", arguments: String.self) { name in
            ClosureCommand(name) {
                await gate.wait()
                try Task.checkCancellation()
                done.withLock { $0.append(name) }
            }
        }
        let invoker = JournaledInvoker(journal: journal, registry: registry, clock: clock)
        let queue = CommandQueue("q", journal: journal)
        try await queue.enqueue(kind: "test.slow", arguments: "a", key: "a")
        let worker = QueueWorker(queue, invoker: invoker)
        try await testGracefulShutdown { trigger in
            async let running: Void = QueueWorkerService(worker).run()
            await gate.waitForWaiter()
            trigger.triggerGracefulShutdown()
            gate.open()
            try await running
        }
        #expect(done.withLock { $0 } == ["a"], "the claimed command ran to its end")
        #expect(try await journal.record(forKey: "a")?.status == .done)
    }

    @Test func aRecoveryServiceRecoversAtStartAndOnItsSchedule() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let ran = LockedValue<[String]>([])
        var registry = CommandRegistry()
        registry.register("test.note", arguments: String.self) { name in
            ClosureCommand(name) { ran.withLock { $0.append(name) } }
        }
        let stopped = JournalLease(owner: "stopped", duration: .seconds(30))
        _ = try await journal.begin(
            try CommandRegistry.entry(kind: "test.note", arguments: "left", key: "left"),
            lease: JournalLease(owner: "old", duration: .zero))
        _ = try await journal.begin(
            try CommandRegistry.entry(kind: "test.note", arguments: "later", key: "later"), lease: stopped)
        let invoker = JournaledInvoker(journal: journal, registry: registry, clock: clock)
        let reports = LockedValue<[CommandRecoveryReport]>([])
        try await testGracefulShutdown { trigger in
            let service = RecoveryService(
                invoker, every: .seconds(60),
                onReport: { report in
                    reports.withLock { $0.append(report) }
                })
            async let running: Void = service.run()
            while reports.withLock({ $0.count }) < 1 { await Task.yield() }
            #expect(ran.withLock { $0 } == ["left"], "at start: the expired lease")
            var waited = 0
            while reports.withLock({ $0.count }) < 2 && waited < 120 {  // the service sleeps 60 s between looks
                // Lets the service reach its sleep first (a loaded machine may be slow to): a sleep
                // begun after an advance would start its 60 s from there.
                for _ in 0..<100 { await Task.yield() }
                await clock.advance(by: .seconds(1))
                waited += 1
            }
            #expect(ran.withLock { $0 } == ["left", "later"], "on the schedule: the lease that expired since")
            trigger.triggerGracefulShutdown()
            try await running
        }
        #expect(reports.withLock { $0.map(\.replayed) } == [["left"], ["later"]])
    }

    @Test func aBatchInvokerServiceFlushesOnAGracefulShutdown() async throws {
        let ran = LockedValue(0)
        let batches = BatchInvoker(batchSize: 100, clock: clock)
        batches.submit(ClosureCommand("one") { ran.withLock { $0 += 1 } })
        try await testGracefulShutdown { trigger in
            async let running: Void = BatchInvokerService(batches).run()
            trigger.triggerGracefulShutdown()
            try await running
        }
        #expect(ran.withLock { $0 } == 1 && batches.pendingCount == 0)
    }

    @Test func aRuntimeServiceStopsTheRuntimeOnAGracefulShutdown() async throws {
        enum Light: Hashable, Sendable { case red, green }
        enum Change: Hashable, Sendable { case go }
        let definition = StateMachineDefinition<Light, Change, Int>(initial: .red) { In(.red) { On(.go, to: .green) } }
        let runtime = StateMachineRuntime(definition, context: 0, clock: clock)
        try await testGracefulShutdown { trigger in
            async let running: Void = StateMachineRuntimeService(runtime).run()
            trigger.triggerGracefulShutdown()
            try await running
        }
        #expect(runtime.send(.go).refusal != nil, "a stopped runtime changes state no more")
        #expect(runtime.state == .red)
    }

    @Test func aJournalServiceClosesTheJournalAfterItsWritesAndLaterWritesFail() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("services-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = try SQLiteCommandJournal(path: folder.appendingPathComponent("j.sqlite").path)
        let lease = JournalLease(owner: "w", duration: .seconds(30))
        try await testGracefulShutdown { trigger in
            async let running: Void = CommandJournalService(journal).run()
            _ = try await journal.begin(CommandJournalEntry(idempotencyKey: "k", kind: "test"), lease: lease)
            trigger.triggerGracefulShutdown()
            try await running
        }
        await #expect(throws: SQLiteStoreError.self) {
            _ = try await journal.begin(CommandJournalEntry(idempotencyKey: "k2", kind: "test"), lease: lease)
        }
        let reopened = try SQLiteCommandJournal(path: folder.appendingPathComponent("j.sqlite").path)
        #expect(try await reopened.record(forKey: "k")?.status == .pending)
    }
}
