import BehaviorKitSync
import Chains
import Testing

/// The fast path is taken by the first tier's declared ``LookupTier/memoryCache``, not by a guess
/// at its type.
struct TieredLookupFrontTierTests {
    /// A store in front of a memory cache that counts the lookups made through it.
    final class Wrapped: LookupStore, Sendable {
        let cache = MemoryCache<Int, String>()
        let declaresCache: Bool
        private let calls = LockedValue(0)

        init(declaresCache: Bool) { self.declaresCache = declaresCache }

        var name: String { "wrapped" }
        var lookups: Int { calls.withLock { $0 } }
        var memoryCache: MemoryCache<Int, String>? { declaresCache ? cache : nil }

        func lookup(_ key: Int) async throws -> String? {
            calls.withLock { $0 += 1 }
            return cache.value(forKey: key)
        }
        func store(_ value: String, for key: Int) async throws { cache.setValue(value, forKey: key) }
        func remove(_ key: Int) async throws { cache.removeValue(forKey: key) }
    }

    @Test func aFirstTierThatDeclaresItsMemoryCacheIsReadOnTheFastPath() async throws {
        let front = Wrapped(declaresCache: true)
        let lookup = TieredLookup<Int, String>([front, CountingSource("source", table: [1: "one"])])
        for _ in 0..<130 { #expect(try await lookup.value(for: 1) == "one") }
        #expect(front.lookups == 0)
        let statistics = lookup.statistics.tiers[0]
        #expect(statistics.hits == 129)
        #expect(statistics.misses == 1)
        #expect(statistics.timedReads == 3)  // one read in 64
    }

    @Test func aFirstTierThatDeclaresNoneIsAskedEveryTime() async throws {
        let front = Wrapped(declaresCache: false)
        let lookup = TieredLookup<Int, String>([front, CountingSource("source", table: [1: "one"])])
        for _ in 0..<130 { #expect(try await lookup.value(for: 1) == "one") }
        #expect(front.lookups == 130)
        #expect(lookup.statistics.tiers[0].timedReads == 130)
    }

    @Test func aMemoryCacheDeclaresItselfAndOtherTiersNothing() {
        let memory = MemoryCache<Int, String>()
        #expect(memory.memoryCache === memory)
        #expect(LookupSource<Int, String>(name: "source") { _ in nil }.memoryCache == nil)
    }
}
