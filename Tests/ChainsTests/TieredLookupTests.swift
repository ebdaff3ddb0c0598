import BehaviorKitSync
import BehaviorKitTesting
import Chains
import Testing

struct TieredLookupTests {
    let log = LockedValue<[String]>([])

    @Test func answersFromTheFirstTierThatHasTheValue() async throws {
        let memory = MemoryCache<Int, String>()
        let disk = RecordingStore("disk", log: log, values: [2: "two"])
        let source = CountingSource("primary", table: [3: "three"])
        let lookup = TieredLookup<Int, String>([memory, disk, source])
        memory.setValue("one", forKey: 1)

        #expect(try await lookup.answer(for: 1).tier == "memory")
        #expect(try await lookup.answer(for: 2).tier == "disk")
        let answer = try await lookup.answer(for: 3)
        #expect(answer.value == "three")
        #expect(answer.tier == "primary")
        #expect(answer.tierIndex == 2)
        #expect(source.calls == 1)
        // Written back: the next lookups hit memory.
        #expect(try await lookup.answer(for: 2).tier == "memory")
        #expect(try await lookup.answer(for: 3).tier == "memory")

        let statistics = lookup.statistics
        #expect(statistics.tiers.map(\.name) == ["memory", "disk", "primary"])
        #expect(statistics.tiers.map(\.hits) == [3, 1, 1])
        #expect(statistics.tiers.map(\.misses) == [2, 1, 0])
        #expect(statistics.tiers.map(\.writes) == [2, 1, 0])
    }

    @Test func writeBackGoesUpTheChainNearestFirst() async throws {
        let upper = RecordingStore("upper", log: log)
        let lower = RecordingStore("lower", log: log)
        let lookup = TieredLookup<Int, String>([upper, lower, CountingSource("source", table: [7: "seven"])])
        #expect(try await lookup.value(for: 7) == "seven")
        #expect(
            log.withLock { $0 } == [
                "upper.lookup(7)", "lower.lookup(7)", "lower.store(7)", "upper.store(7)",
            ])
        #expect(upper.contents == [7: "seven"])
        #expect(lower.contents == [7: "seven"])
    }

    @Test func aHitInTheMiddleWritesOnlyAbove() async throws {
        let upper = RecordingStore("upper", log: log)
        let lower = RecordingStore("lower", log: log, values: [1: "one"])
        let lookup = TieredLookup<Int, String>([upper, lower])
        #expect(try await lookup.value(for: 1) == "one")
        #expect(log.withLock { $0 } == ["upper.lookup(1)", "lower.lookup(1)", "upper.store(1)"])
    }

    @Test func aFailingWriteBackIsCountedAndTheLookupStillAnswers() async throws {
        let readOnly = RecordingStore("read-only", log: log, failsWrites: true)
        let lookup = TieredLookup<Int, String>([readOnly, CountingSource("source", table: [1: "one"])])
        #expect(try await lookup.value(for: 1) == "one")
        #expect(lookup.statistics.tiers[0].writeErrors == 1)
    }

    @Test func aFailingTierIsCountedAndSkipped() async throws {
        let primary = CountingSource("primary", table: [1: "from primary"], failing: true)
        let fallback = CountingSource("fallback", table: [1: "from fallback"])
        let lookup = TieredLookup<Int, String>([MemoryCache(), primary, fallback])
        let answer = try await lookup.answer(for: 1)
        #expect(answer.value == "from fallback")
        #expect(answer.tier == "fallback")
        let statistics = lookup.statistics
        #expect(statistics.tiers[1].errors == 1)
        #expect(statistics.tiers[2].hits == 1)
    }

    @Test func theEndOfTheChainIsUnavailableWhenASourceFailedListingFailures() async {
        let primary = CountingSource("primary", table: [:], failing: true)
        let fallback = CountingSource("fallback", table: [:])
        let lookup = TieredLookup<Int, String>([MemoryCache(), primary, fallback])
        do {
            _ = try await lookup.value(for: 10_000)
            Issue.record("expected unavailable")
        } catch {
            #expect(error.code == .unavailable)
            #expect(error.key == 10_000)
            #expect(error.failures.map(\.tier) == ["primary"])
            #expect(error.description == "unavailable: 10000 (primary failed: primary is down)")
        }
        #expect(lookup.statistics.unavailable == 1)
        #expect(lookup.statistics.notFound == 0)
    }

    @Test func theEndOfTheChainIsNotFoundWhenEverySourceAnsweredEvenIfACacheFailed() async {
        let disk = LookupSource<Int, String>(name: "disk") { _ in throw TestFailure("disk is unreadable") }
        let lookup = TieredLookup<Int, String>([
            MemoryCache(), DiskLikeStore(disk), CountingSource("source", table: [:]),
        ])
        do {
            _ = try await lookup.value(for: 1)
            Issue.record("expected not found")
        } catch {
            #expect(error.code == .notFound)
            #expect(error.description == "not found: 1 (disk failed: disk is unreadable)")
        }
        #expect(lookup.statistics.notFound == 1)
    }

    @Test func latencyIsMeasuredOnTheInjectedClock() async throws {
        let clock = ImmediateClock()
        let slow = LookupSource<Int, String>(name: "slow") { key in
            try await clock.sleep(for: .milliseconds(40))
            return "\(key)"
        }
        let lookup = TieredLookup<Int, String>([MemoryCache(clock: clock), slow], clock: clock)
        _ = try await lookup.value(for: 1)
        _ = try await lookup.value(for: 2)
        let statistics = lookup.statistics.tiers[1]
        #expect(statistics.timedReads == 2)
        #expect(statistics.meanLatency == .milliseconds(40))
        #expect(statistics.maxLatency == .milliseconds(40))
    }

    @Test func theFastPathCountsEveryHitAndTimesASample() async throws {
        let memory = MemoryCache<Int, String>()
        memory.setValue("x", forKey: 1)
        let lookup = TieredLookup<Int, String>([memory])
        for _ in 0..<130 { _ = try await lookup.value(for: 1) }
        let statistics = lookup.statistics.tiers[0]
        #expect(statistics.hits == 130)
        #expect(statistics.misses == 0)
        #expect(statistics.timedReads == 3)  // reads 1, 65 and 129
    }

    @Test func aLookupCanBeATier() async throws {
        let inner = TieredLookup<Int, String>([CountingSource("inner", table: [1: "one"])], name: "regional")
        let outer = TieredLookup<Int, String>([MemoryCache(), inner])
        #expect(try await outer.answer(for: 1).tier == "regional")
        #expect(try await outer.lookup(2) == nil)
    }

    @Test func storeAndInvalidateReachEveryCache() async throws {
        let memory = MemoryCache<Int, String>()
        let disk = RecordingStore("disk", log: log)
        let source = CountingSource("source", table: [1: "original"])
        let lookup = TieredLookup<Int, String>([memory, disk, source])
        await lookup.store("stored", for: 1)
        #expect(memory.value(forKey: 1) == "stored")
        #expect(disk.contents[1] == "stored")
        await lookup.invalidate(1)
        #expect(memory.value(forKey: 1) == nil)
        #expect(disk.contents[1] == nil)
        #expect(try await lookup.value(for: 1) == "original")
    }

    @Test func aCancelledLookupSaysSo() async {
        let lookup = TieredLookup<Int, String>([CountingSource("source", table: [1: "one"])])
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await lookup.value(for: 1)
        }
        await #expect(throws: LookupError<Int>.self) { try await task.value }
        do {
            _ = try await task.value
        } catch let error as LookupError<Int> {
            #expect(error.code == .cancelled)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
