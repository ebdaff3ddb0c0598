import BehaviorKitSync
import BehaviorKitTesting
import Chains
import Testing

/// What happens when a load races with an invalidate, a store, or a cancellation.
struct TieredLookupRaceTests {
    /// Starts a lookup of `key` on its own task and waits until the source holds it.
    private func startLoad(
        _ key: Int, on lookup: TieredLookup<Int, String>, source: ChangingSource, calls: Int = 1
    ) async -> Task<String, any Error> {
        let task = Task { try await lookup.value(for: key) }
        await eventually { source.calls >= calls }
        return task
    }

    /// The code of the lookup error `task` threw, or `nil` when it answered.
    private func code(of task: Task<String, any Error>) async -> LookupError<Int>.Code? {
        do {
            _ = try await task.value
            return nil
        } catch {
            return (error as? LookupError<Int>)?.code
        }
    }

    @Test func anInvalidateDuringALoadWinsOverItsWriteBack() async throws {
        let memory = MemoryCache<Int, String>()
        let source = ChangingSource()
        let lookup = TieredLookup<Int, String>([memory, source])
        let load = await startLoad(1, on: lookup, source: source)
        await lookup.invalidate(1)
        source.gate.open()
        #expect(try await load.value == "v1")  // the load still answers its callers
        #expect(memory.value(forKey: 1) == nil)  // but the invalidated value is not kept
        #expect(try await lookup.value(for: 1) == "v2")
    }

    @Test func aStoreDuringALoadWinsOverItsWriteBack() async throws {
        let memory = MemoryCache<Int, String>()
        let source = ChangingSource()
        let lookup = TieredLookup<Int, String>([memory, source])
        let load = await startLoad(1, on: lookup, source: source)
        await lookup.store("stored", for: 1)
        source.gate.open()
        _ = try await load.value
        #expect(memory.value(forKey: 1) == "stored")
        #expect(try await lookup.value(for: 1) == "stored")
        #expect(source.calls == 1)
    }

    @Test func aLookupAfterAnInvalidateDoesNotJoinTheLoadItInvalidated() async throws {
        let memory = MemoryCache<Int, String>()
        let source = ChangingSource()
        let lookup = TieredLookup<Int, String>([memory, source])
        let stale = await startLoad(1, on: lookup, source: source)
        await lookup.invalidate(1)
        let fresh = await startLoad(1, on: lookup, source: source, calls: 2)
        source.gate.open()
        #expect(try await stale.value == "v1")
        #expect(try await fresh.value == "v2")
        #expect(source.calls == 2)
        #expect(memory.value(forKey: 1) == "v2")
    }

    @Test func theLoadSurvivesItsFirstCallersCancellation() async throws {
        let source = ChangingSource()
        let lookup = TieredLookup<Int, String>([MemoryCache(), source])
        let first = await startLoad(1, on: lookup, source: source)
        let second = Task { try await lookup.value(for: 1) }
        await eventually { lookup.statistics.coalesced == 1 }
        first.cancel()
        await #expect(throws: LookupError<Int>.self) { try await first.value }
        source.gate.open()
        #expect(try await second.value == "v1")
        #expect(source.calls == 1)
        #expect(source.gate.cancellations == 0)
    }

    @Test func aCancelledWaiterReturnsAtOnceWithCancelled() async throws {
        let source = ChangingSource()
        let lookup = TieredLookup<Int, String>([MemoryCache(), source])
        let first = await startLoad(1, on: lookup, source: source)
        let finished = LockedValue(false)
        let second = Task {
            defer { finished.withLock { $0 = true } }
            return try await lookup.value(for: 1)
        }
        await eventually { lookup.statistics.coalesced == 1 }
        second.cancel()
        let returnedBeforeTheLoad = await eventually { finished.withLock { $0 } }
        source.gate.open()
        #expect(returnedBeforeTheLoad)
        await #expect(throws: LookupError<Int>.self) { try await second.value }
        #expect(await code(of: second) == .cancelled)
        #expect(try await first.value == "v1")
    }

    @Test func theLoadStopsWhenEveryWaiterHasGone() async throws {
        let memory = MemoryCache<Int, String>()
        let source = ChangingSource()
        let lookup = TieredLookup<Int, String>([memory, source])
        let first = await startLoad(1, on: lookup, source: source)
        let second = Task { try await lookup.value(for: 1) }
        await eventually { lookup.statistics.coalesced == 1 }
        first.cancel()
        second.cancel()
        #expect(await eventually { source.gate.cancellations == 1 })
        #expect(await code(of: first) == .cancelled)
        #expect(await code(of: second) == .cancelled)
        source.gate.open()
        // The next lookup starts a new load rather than joining the abandoned one.
        #expect(try await lookup.value(for: 1) == "v2")
        #expect(memory.value(forKey: 1) == "v2")
    }

    @Test func everySourceDownIsUnavailableNotNotFound() async {
        let lookup = TieredLookup<Int, String>([
            MemoryCache(), CountingSource("primary", table: [1: "one"], failing: true),
        ])
        for _ in 0..<7 {  // failures, then the open circuit skips the source
            do {
                _ = try await lookup.value(for: 1)
                Issue.record("a failing source answered")
            } catch {
                #expect(error.code != .notFound)
                #expect(error.code == .unavailable)
                #expect(!error.failures.isEmpty)
            }
        }
        #expect(lookup.statistics.tiers[1].skipped == 2)
    }
}
