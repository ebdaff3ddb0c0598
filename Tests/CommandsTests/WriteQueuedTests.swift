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

    /// A told write held back for the write that follows (a queue worker's settlement, for its
    /// claim) commits with it, in one batch; released, or at close, it commits alone.
    @Test func aHeldWriteCommitsWithTheWriteThatFollowsIt() async throws {
        let batches = LockedValue<[[Int]]>([])
        let commits = GroupCommit<Int, Int> { operations in
            batches.withLock { $0.append(operations) }
            return operations.map { .success($0) }
        }
        let held = HeldWrites()
        let told = LockedValue(0)
        let settlement = Task {
            try await WriteQueued.$heldBy.withValue(held) {
                try await WriteQueued.$signal.withValue(CallOnce { told.withLock { $0 += 1 } }) {
                    try await commits.submit(1)
                }
            }
        }
        #expect(await eventually { told.withLock { $0 } == 1 })
        for _ in 0..<100 { await Task.yield() }
        #expect(batches.withLock { $0 }.isEmpty, "held back until the write that follows")
        #expect(try await commits.submit(2) == 2)
        #expect(try await settlement.value == 1)
        #expect(batches.withLock { $0 } == [[1, 2]])
        held.release()
        #expect(batches.withLock { $0 }.count == 1, "nothing left to start")
    }

    @Test func aHeldWriteCommitsOnceReleasedOrAtClose() async throws {
        let batches = LockedValue<[[Int]]>([])
        let commits = GroupCommit<Int, Int> { operations in
            batches.withLock { $0.append(operations) }
            return operations.map { .success($0) }
        }
        let held = HeldWrites()
        let submit = { (value: Int) in
            Task {
                try await WriteQueued.$heldBy.withValue(held) {
                    try await WriteQueued.$signal.withValue(CallOnce {}) { try await commits.submit(value) }
                }
            }
        }
        let first = submit(1)
        #expect(await eventually { commits.counts.batches == 0 && held.isHolding })
        held.release()
        #expect(try await first.value == 1)
        let second = submit(2)
        #expect(await eventually { held.isHolding })
        await commits.close()
        #expect(try await second.value == 2)
        #expect(batches.withLock { $0 } == [[1], [2]])
    }

    @Test func aClosedHoldHoldsNothing() async throws {
        let commits = GroupCommit<Int, Int> { operations in operations.map { .success($0) } }
        let held = HeldWrites()
        held.close()
        let value = try await WriteQueued.$heldBy.withValue(held) {
            try await WriteQueued.$signal.withValue(CallOnce {}) { try await commits.submit(3) }
        }
        #expect(value == 3)
        #expect(!held.isHolding)
    }

    @Test func aWriteNobodyAsksAboutTellsNoOne() async throws {
        let commits = GroupCommit<Int, Int> { operations in operations.map { .success($0) } }
        #expect(WriteQueued.signal == nil)
        #expect(try await commits.submit(1) == 1)
    }
}
