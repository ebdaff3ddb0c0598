import BehaviorKitSync
import Chains
import Testing

struct SingleFlightStressTests {
    /// Starts `count` lookups of `key` while the source is held, waits until all but one joined
    /// the first, then lets the source answer.
    private func concurrentLookups(
        of key: Int, count: Int, lookup: TieredLookup<Int, String>, gate: Gate
    ) async -> [Result<String, LookupError<Int>>] {
        await withTaskGroup(of: Result<String, LookupError<Int>>.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do throws(LookupError<Int>) {
                        return .success(try await lookup.value(for: key))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            var spins = 0
            while lookup.statistics.coalesced < count - 1 && spins < 1_000_000 {
                spins += 1
                await Task.yield()
            }
            gate.open()
            var results: [Result<String, LookupError<Int>>] = []
            for await result in group { results.append(result) }
            return results
        }
    }

    @Test func aThousandConcurrentMissesReachTheSourceOnceStress() async {
        let gate = Gate()
        let source = CountingSource("source", table: [42: "answer"], gate: gate)
        let lookup = TieredLookup<Int, String>([MemoryCache(), source])
        let results = await concurrentLookups(of: 42, count: 1_000, lookup: lookup, gate: gate)
        #expect(source.calls == 1)
        #expect(results.count == 1_000)
        #expect(results.allSatisfy { (try? $0.get()) == "answer" })
        let statistics = lookup.statistics
        #expect(statistics.coalesced == 999)
        #expect(statistics.tiers[0].misses == 1_000)
        #expect(statistics.tiers[1].hits == 1)
    }

    @Test func aThousandConcurrentLookupsOfAMissingKeyShareOneNotFoundStress() async {
        let gate = Gate()
        let source = CountingSource("source", table: [:], gate: gate)
        let lookup = TieredLookup<Int, String>([MemoryCache(), source])
        let results = await concurrentLookups(of: 7, count: 1_000, lookup: lookup, gate: gate)
        #expect(source.calls == 1)
        #expect(results.allSatisfy { if case .failure(let error) = $0 { error.code == .notFound } else { false } })
    }

    @Test func differentKeysDoNotWaitForEachOtherStress() async throws {
        let lookup = TieredLookup<Int, String>([
            MemoryCache(countLimit: 50),
            CountingSource("source", table: Dictionary(uniqueKeysWithValues: (0..<100).map { ($0, "\($0)") })),
        ])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for step in 0..<300 {
                        let key = (task * 13 + step) % 100
                        let value = try await lookup.value(for: key)
                        if value != "\(key)" { Issue.record("\(key) -> \(value)") }
                    }
                }
            }
            try await group.waitForAll()
        }
        let statistics = lookup.statistics
        #expect(statistics.tiers[0].reads == 2_400)
        #expect(statistics.tiers[0].hits + statistics.tiers[1].hits + statistics.coalesced == 2_400)
    }
}
