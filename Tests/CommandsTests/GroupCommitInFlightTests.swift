import BehaviorKitSync
import BehaviorKitTesting
import Testing

/// A group commit made with `maximumInFlight` above 1 commits that many batches at once; a batch
/// with an ordered write (a member of `submitAll`, a write whose submitter was told it is queued,
/// one that `runsAlone`) commits with none beside it.
struct GroupCommitInFlightTests {
    /// Commits each batch once its gate opens, keeping the batches begun and the most at once.
    final class Server: Sendable {
        let begun = LockedValue<[[Int]]>([])
        let inFlight = LockedValue((now: 0, most: 0))
        let gates = LockedValue<[Int: AsyncStream<Void>.Continuation]>([:])

        func commit(_ operations: [Int]) async -> [Result<Int, any Error>] {
            let (gate, open) = AsyncStream<Void>.makeStream()
            gates.withLock { gates in for operation in operations { gates[operation] = open } }
            inFlight.withLock { $0 = (now: $0.now + 1, most: max($0.most, $0.now + 1)) }
            begun.withLock { $0.append(operations) }
            for await _ in gate { break }
            inFlight.withLock { $0.now -= 1 }
            return operations.map { .success($0 * 10) }
        }

        /// Opens the gate of the batch that holds `operation`.
        func open(_ operation: Int) { _ = gates.withLock { $0[operation] }?.yield() }

        /// Opens the gates of every batch begun.
        func openAll() { for gate in gates.withLock({ Array($0.values) }) { gate.yield() } }

        var batches: [[Int]] { begun.withLock { $0 } }
        var most: Int { inFlight.withLock { $0.most } }
    }

    func commits(_ server: Server, inFlight: Int, batch: Int = 1024) -> GroupCommit<Int, Int> {
        GroupCommit<Int, Int>(maximumBatch: batch, maximumInFlight: inFlight, runsAlone: { $0 < 0 }) {
            await server.commit($0)
        }
    }

    func settle() async { for _ in 0..<200 { await Task.yield() } }

    @Test(arguments: [1, 2])
    func aWriteArrivingWhileABatchCommitsCommitsBesideItOnlyWhenAllowed(inFlight: Int) async throws {
        let server = Server()
        let commits = commits(server, inFlight: inFlight)
        let first = Task { try await commits.submit(1) }
        #expect(await eventually { server.batches == [[1]] })
        let second = Task { try await commits.submit(2) }
        if inFlight == 2 {
            #expect(await eventually { server.batches == [[1], [2]] })
            server.open(2)
            #expect(try await second.value == 20, "answered while the first batch still commits")
            server.open(1)
        } else {
            await settle()
            #expect(server.batches == [[1]], "the second batch waits for the first")
            server.open(1)
            #expect(await eventually { server.batches == [[1], [2]] })
            server.open(2)
            #expect(try await second.value == 20)
        }
        #expect(try await first.value == 10)
        #expect(server.most == inFlight)
    }

    @Test func neverMoreBatchesAtOnceThanAllowed() async throws {
        let server = Server()
        let commits = commits(server, inFlight: 2)
        let first = Task { try await commits.submit(1) }
        #expect(await eventually { server.batches == [[1]] })
        let second = Task { try await commits.submit(2) }
        #expect(await eventually { server.batches == [[1], [2]] })
        let third = Task { try await commits.submit(3) }
        await settle()
        #expect(server.batches.count == 2, "a third batch began while two committed")
        server.open(1)
        #expect(await eventually { server.batches == [[1], [2], [3]] })
        server.open(2)
        server.open(3)
        #expect(try await [first.value, second.value, third.value] == [10, 20, 30])
        #expect(server.most == 2)
    }

    /// A write that runs alone, committed in its caller's task, has no batch beside it either;
    /// a plain one there has.
    @Test(arguments: [-1, 1])
    func aLoneWriteInItsCallersTaskHasABatchBesideItUnlessItRunsAlone(first: Int) async throws {
        let server = Server()
        let commits = GroupCommit<Int, Int>(
            commitsLoneWritesInCaller: true, maximumInFlight: 2, runsAlone: { $0 < 0 }
        ) { await server.commit($0) }
        let lone = Task { try await commits.submit(first) }
        #expect(await eventually { server.batches == [[first]] })
        let next = Task { try await commits.submit(2) }
        if first < 0 {
            await settle()
            #expect(server.batches == [[first]], "a batch began beside a write that runs alone")
        } else {
            #expect(await eventually { server.batches == [[first], [2]] })
        }
        server.open(first)
        #expect(await eventually { server.batches == [[first], [2]] })
        server.open(2)
        #expect(try await [lone.value, next.value] == [first * 10, 20])
        #expect(server.most == (first < 0 ? 1 : 2))
    }

    /// The members of a `submitAll` (in batches of at most 2) and a write that runs alone (here a
    /// negative one) commit with no batch beside them, the members in their order.
    @Test func orderedWritesCommitWithNoBatchBesideThem() async throws {
        let server = Server()
        let commits = commits(server, inFlight: 2, batch: 2)
        let plain = Task { try await commits.submit(1) }
        #expect(await eventually { server.batches == [[1]] })
        let members = Task { await commits.submitAll([3, 4, 5]) }
        let alone = Task { try await commits.submit(-6) }
        await settle()
        #expect(server.batches == [[1]], "an ordered write began beside a batch under way")
        while server.batches.flatMap({ $0 }).count < 5 {
            server.openAll()
            await settle()
        }
        server.openAll()
        #expect(try await plain.value == 10)
        #expect(try await alone.value == -60)
        #expect(await members.value.map { try? $0.get() } == [30, 40, 50])
        let order = server.batches.flatMap { $0 }.filter { $0 > 1 }
        #expect(order == [3, 4, 5], "the members in their order")
        #expect(server.most == 1, "\(server.batches)")
    }
}
