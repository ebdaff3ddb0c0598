import BehaviorKitSync
import BehaviorKitTesting
import Testing

/// A submitter that asks is told once its write waits in the group commit, before the commit
/// answers (a queue worker frees a command's slot then); once, however often it is told.
struct WriteQueuedTests {
    @Test func aSubmitterIsToldOnceItsWriteIsQueuedBeforeItCommits() async throws {
        let (gate, open) = AsyncStream<Void>.makeStream()
        let commits = GroupCommit<Int, Int> { operations in
            for await _ in gate { break }
            return operations.map { .success($0 * 2) }
        }
        let told = LockedValue(0)
        let signal = CallOnce { told.withLock { $0 += 1 } }
        let submitted = Task { try await WriteQueued.$signal.withValue(signal) { try await commits.submit(21) } }
        #expect(await eventually { told.withLock { $0 } == 1 }, "not told while the commit waits")
        open.yield()
        #expect(try await submitted.value == 42)
        signal()
        #expect(told.withLock { $0 } == 1)
    }

    @Test func aWriteNobodyAsksAboutTellsNoOne() async throws {
        let commits = GroupCommit<Int, Int> { operations in operations.map { .success($0) } }
        #expect(WriteQueued.signal == nil)
        #expect(try await commits.submit(1) == 1)
    }
}
