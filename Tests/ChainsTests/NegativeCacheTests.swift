import BehaviorKitTesting
import Chains
import Testing

struct NegativeCacheTests {
    @Test func aKeyIsRememberedForItsTimeToLive() async {
        let clock = ManualClock()
        let notFound = NegativeCache<Int>(timeToLive: .seconds(30), clock: clock)
        notFound.remember(1)
        #expect(notFound.contains(1))
        #expect(!notFound.contains(2))
        await clock.advance(by: .seconds(29))
        #expect(notFound.contains(1))
        await clock.advance(by: .seconds(1))
        #expect(!notFound.contains(1))
    }

    @Test func theCountLimitIsTheCallersTenThousandByDefault() {
        #expect(NegativeCache<Int>(timeToLive: .seconds(1)).countLimit == 10_000)
        #expect(NegativeCache<Int>.defaultCountLimit == 10_000)
        #expect(NegativeCache<Int>(timeToLive: .seconds(1), countLimit: 50_000).countLimit == 50_000)
    }

    @Test func pastItsCountLimitTheLeastRecentlyRememberedGoes() {
        let notFound = NegativeCache<Int>(timeToLive: .seconds(30), countLimit: 2)
        for key in 1...3 { notFound.remember(key) }
        #expect(!notFound.contains(1))
        #expect(notFound.contains(2))
        #expect(notFound.contains(3))
        #expect(notFound.count == 2)
    }

    @Test func aCountLimitOfZeroRemembersNothingAndANegativeOneIsZero() {
        for limit in [0, -5] {
            let notFound = NegativeCache<Int>(timeToLive: .seconds(30), countLimit: limit)
            notFound.remember(1)
            #expect(!notFound.contains(1))
            #expect(notFound.countLimit == 0)
        }
    }

    @Test func aForgottenKeyIsAskedAgain() {
        let notFound = NegativeCache<Int>(timeToLive: .seconds(30))
        notFound.remember(1)
        notFound.forget(1)
        #expect(!notFound.contains(1))
    }

    @Test func aLookupRemembersInTheNegativeCacheItIsGivenWithItsLimit() async {
        let source = CountingSource("source", table: [:])
        let notFound = NegativeCache<Int>(timeToLive: .seconds(30), countLimit: 1)
        let lookup = TieredLookup<Int, String>([MemoryCache(), source], notFound: notFound)
        for key in [1, 2, 2, 1] {
            await #expect(throws: LookupError<Int>.self) { try await lookup.value(for: key) }
        }
        // 2 was remembered once; 1 was pushed out by 2, so it is asked again.
        #expect(source.calls == 3)
        #expect(lookup.statistics.rememberedNotFound == 1)
        #expect(notFound.contains(1))
        await lookup.store("here", for: 1)
        #expect(!notFound.contains(1))
    }
}
