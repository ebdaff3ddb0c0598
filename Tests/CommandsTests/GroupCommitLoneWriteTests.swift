import BehaviorKitSync
import BehaviorKitTesting
import Testing

/// A group commit made with `commitsLoneWritesInCaller` commits a write that finds it idle in
/// the caller's own task, a batch of one; what arrives meanwhile waits, and commits together
/// after it; close waits for it. Without the option every batch runs in a drain task.
struct GroupCommitLoneWriteTests {
    @TaskLocal static var caller: String?

    @Test(arguments: [true, false])
    func aLoneWriteCommitsInItsCallersTaskOnlyWhenAsked(inCaller: Bool) async throws {
        let seen = LockedValue<[String?]>([])
        let commits = GroupCommit<Int, Int>(commitsLoneWritesInCaller: inCaller) { operations in
            seen.withLock { $0.append(Self.caller) }
            return operations.map { .success($0 + 1) }
        }
        let answer = try await Self.$caller.withValue("submitter") { try await commits.submit(1) }
        #expect(answer == 2)
        #expect(seen.withLock { $0 } == [inCaller ? "submitter" : nil])
        #expect(commits.counts == (batches: 1, operations: 1))
    }

    /// A submitter told once its write is queued (a queue worker's settlement) means its next
    /// write (its claim) to join that commit: its write goes to a drain task, as without the option.
    @Test func aToldWriteIsLeftToTheDrainForTheWriteThatFollows() async throws {
        let seen = LockedValue<[String?]>([])
        let commits = GroupCommit<Int, Int>(commitsLoneWritesInCaller: true) { operations in
            seen.withLock { $0.append(Self.caller) }
            return operations.map { .success($0) }
        }
        let told = LockedValue(0)
        let answer = try await Self.$caller.withValue("submitter") {
            try await WriteQueued.$signal.withValue(CallOnce { told.withLock { $0 += 1 } }) {
                try await commits.submit(5)
            }
        }
        #expect(answer == 5)
        #expect(told.withLock { $0 } == 1)
        #expect(seen.withLock { $0 } == [nil], "committed in the drain task, not the submitter's")
    }

    @Test func writesArrivingWhileALoneWriteCommitsWaitAndCommitTogetherAfterIt() async throws {
        let (gate, open) = AsyncStream<Void>.makeStream()
        let batches = LockedValue<[[Int]]>([])
        let commits = GroupCommit<Int, Int>(commitsLoneWritesInCaller: true) { operations in
            if operations == [1] { for await _ in gate { break } }
            batches.withLock { $0.append(operations) }
            return operations.map { .success($0 * 10) }
        }
        let lone = Task { try await commits.submit(1) }
        #expect(await eventually { commits.counts.batches == 1 })
        let queued = LockedValue(0)
        let others = (2...4).map { value in
            Task {
                try await WriteQueued.$signal.withValue(CallOnce { queued.withLock { $0 += 1 } }) {
                    try await commits.submit(value)
                }
            }
        }
        #expect(await eventually { queued.withLock { $0 } == 3 })
        #expect(batches.withLock { $0 }.isEmpty, "the lone write still commits: the others wait")
        open.yield()
        #expect(try await lone.value == 10)
        for (value, other) in zip(2...4, others) { #expect(try await other.value == value * 10) }
        let committed = batches.withLock { $0 }
        #expect(committed.first == [1])
        #expect(committed.dropFirst().flatMap { $0 }.sorted() == [2, 3, 4])
        #expect(committed.count == 2, "the writes that waited commit in one batch")
    }

    @Test func closeWaitsForALoneWriteAndRefusesLaterOnes() async throws {
        let (gate, open) = AsyncStream<Void>.makeStream()
        let commits = GroupCommit<Int, Int>(commitsLoneWritesInCaller: true) { operations in
            for await _ in gate { break }
            return operations.map { .success($0) }
        }
        let lone = Task { try await commits.submit(7) }
        #expect(await eventually { commits.counts.batches == 1 })
        let closed = LockedValue(false)
        let closing = Task {
            await commits.close()
            closed.withLock { $0 = true }
        }
        for _ in 0..<100 { await Task.yield() }
        #expect(!closed.withLock { $0 }, "close returned while the lone write was committing")
        open.yield()
        #expect(try await lone.value == 7)
        await closing.value
        await #expect(throws: GroupCommit<Int, Int>.Closed.self) { try await commits.submit(8) }
    }
}
