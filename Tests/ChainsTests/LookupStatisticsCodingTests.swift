import Chains
import Foundation
import Testing

/// `LookupStatistics` as JSON: every counter written under its property's name, latencies in
/// nanoseconds, and read back equal.
struct LookupStatisticsCodingTests {
    static var sample: LookupStatistics {
        var statistics = LookupStatistics(tierNames: ["memory", "catalog"])
        statistics.tiers[0].hits = 90
        statistics.tiers[0].misses = 10
        statistics.tiers[0].writes = 10
        statistics.tiers[0].writeErrors = 1
        statistics.tiers[0].lastWriteError = "disk full"
        statistics.tiers[0].timedReads = 100
        statistics.tiers[0].totalLatency = .microseconds(4)
        statistics.tiers[0].maxLatency = .nanoseconds(2_100)
        statistics.tiers[1].hits = 10
        statistics.tiers[1].errors = 1
        statistics.tiers[1].skipped = 2
        statistics.tiers[1].timedReads = 11
        statistics.tiers[1].totalLatency = .milliseconds(220)
        statistics.tiers[1].maxLatency = .milliseconds(25)
        statistics.tiers[1].isCircuitOpen = true
        statistics.coalesced = 3
        statistics.rememberedNotFound = 1
        statistics.notFound = 2
        statistics.unavailable = 4
        statistics.refreshes = 5
        statistics.failedRefreshes = 6
        return statistics
    }

    @Test func everyCounterRoundTrips() throws {
        let statistics = Self.sample
        let decoded = try JSONDecoder().decode(LookupStatistics.self, from: JSONEncoder().encode(statistics))
        #expect(decoded == statistics)
    }

    @Test func theStatisticsOfARealLookupRoundTrip() async throws {
        let lookup = TieredLookup<Int, String>([
            MemoryCache(countLimit: 10), LookupSource(name: "catalog") { $0 == 42 ? "Blade Runner" : nil },
        ])
        _ = try await lookup.value(for: 42)
        _ = try await lookup.value(for: 42)
        _ = try? await lookup.value(for: 7)
        let statistics = lookup.statistics
        #expect(statistics.tiers.map(\.hits) == [1, 1])
        let decoded = try JSONDecoder().decode(LookupStatistics.self, from: JSONEncoder().encode(statistics))
        #expect(decoded == statistics)
    }

    @Test func aTierIsWrittenUnderItsPropertiesNamesWithLatenciesInNanoseconds() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(Self.sample.tiers[0]), as: UTF8.self)
        #expect(
            text
                == #"{"errors":0,"hits":90,"isCircuitOpen":false,"lastWriteError":"disk full","#
                + #""maxLatencyNanoseconds":2100,"misses":10,"name":"memory","skipped":0,"timedReads":100,"#
                + #""totalLatencyNanoseconds":4000,"writeErrors":1,"writes":10}"#)
    }

    @Test func theLookupsCountersAreWrittenBesideTheTiers() throws {
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.sample)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "tiers", "coalesced", "rememberedNotFound", "notFound", "unavailable", "refreshes", "failedRefreshes",
            ])
        #expect((object["tiers"] as? [Any])?.count == 2)
    }

    /// A tier's `Codable` conformance is written by hand (for the latencies): a stored property
    /// added to it must be added to the conformance too, or this fails; the lookup's is the
    /// synthesized one.
    @Test func everyStoredPropertyIsEncoded() throws {
        let tier = Self.sample.tiers[0]
        let tierKeys = try JSONSerialization.jsonObject(with: JSONEncoder().encode(tier)) as? [String: Any]
        #expect(tierKeys?.count == Mirror(reflecting: tier).children.count)
        let statistics = Self.sample
        let keys = try JSONSerialization.jsonObject(with: JSONEncoder().encode(statistics)) as? [String: Any]
        #expect(keys?.count == Mirror(reflecting: statistics).children.count)
    }

    @Test func aMissingCounterIsADecodingErrorNamingIt() {
        let text = #"{"tiers":[],"coalesced":0,"notFound":0,"unavailable":0,"refreshes":0,"failedRefreshes":0}"#
        #expect {
            try JSONDecoder().decode(LookupStatistics.self, from: Data(text.utf8))
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return false }
            return key.stringValue == "rememberedNotFound"
        }
    }
}

/// What `print(lookup.statistics)` shows: a line per tier, then the lookups that reached none.
struct LookupStatisticsDescriptionTests {
    @Test func aLinePerTierThenTheLookups() {
        #expect(
            LookupStatisticsCodingTests.sample.description == """
                memory: 90 hits, 10 misses, 0 errors, 0 skipped, 10 writes, 1 write errors, mean 40 ns, max 2.1 µs; \
                last write error: disk full
                catalog: 10 hits, 0 misses, 1 errors, 2 skipped, 0 writes, 0 write errors, mean 20 ms, max 25 ms, \
                circuit open
                lookups: 3 coalesced, 2 not found, 1 not found remembered, 4 unavailable; refreshes: 5 started, 6 failed
                """)
    }

    @Test func aTierWithoutTimedReadsSaysSo() {
        #expect(
            "\(LookupTierStatistics(name: "disk"))"
                == "disk: 0 hits, 0 misses, 0 errors, 0 skipped, 0 writes, 0 write errors, no timed reads")
    }
}
