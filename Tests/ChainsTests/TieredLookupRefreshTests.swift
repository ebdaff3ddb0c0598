import BehaviorKitSync
import BehaviorKitTesting
import Chains
import Testing

/// Refresh-ahead and stale-while-revalidate.
struct TieredLookupRefreshTests {
    /// A source whose answer changes with each call (`v1`, `v2`, …) and fails while told to.
    final class Counter: Sendable {
        private let state = LockedValue((calls: 0, failing: false, gone: false))
        var calls: Int { state.withLock { $0.calls } }
        func set(failing: Bool = false, gone: Bool = false) {
            state.withLock { ($0.failing, $0.gone) = (failing, gone) }
        }
        func next() throws -> String? {
            let (call, failing, gone) = state.withLock { state in
                state.calls += 1
                return (state.calls, state.failing, state.gone)
            }
            if failing { throw TestFailure("source is down") }
            return gone ? nil : "v\(call)"
        }
    }

    let clock = ManualClock()
    let counter = Counter()

    func makeLookup(
        _ refresh: RefreshPolicy, timeToLive: Duration? = nil
    ) -> (TieredLookup<Int, String>, MemoryCache<Int, String>) {
        let counter = self.counter
        let memory = MemoryCache<Int, String>(timeToLive: timeToLive, clock: clock)
        let source = LookupSource<Int, String>(name: "source") { _ in try counter.next() }
        return (TieredLookup([memory, source], circuitBreaker: nil, refresh: refresh, clock: clock), memory)
    }

    @Test func refreshAheadAnswersAtOnceAndReloadsInTheBackground() async throws {
        let (lookup, memory) = makeLookup(.refreshAhead(after: .seconds(60)))
        #expect(try await lookup.value(for: 1) == "v1")
        await clock.advance(by: .seconds(59))
        #expect(try await lookup.value(for: 1) == "v1")
        #expect(counter.calls == 1)
        await clock.advance(by: .seconds(1))
        // Due: answered from memory at once, one reload started.
        #expect(try await lookup.answer(for: 1).tier == "memory")
        #expect(try await lookup.value(for: 1) == "v1" || memory.value(forKey: 1) == "v2")
        #expect(await eventually { memory.value(forKey: 1) == "v2" })
        #expect(counter.calls == 2)
        #expect(lookup.statistics.refreshes == 1)
        // The reloaded value is due again 60 s after it was written.
        await clock.advance(by: .seconds(59))
        #expect(try await lookup.value(for: 1) == "v2")
        #expect(counter.calls == 2)
    }

    @Test func aDueValueIsReloadedOnceHoweverManyReadIt() async throws {
        let (lookup, memory) = makeLookup(.refreshAhead(after: .seconds(60)))
        _ = try await lookup.value(for: 1)
        await clock.advance(by: .seconds(60))
        for _ in 0..<20 { #expect(try await lookup.answer(for: 1).tier == "memory") }
        #expect(await eventually { memory.value(forKey: 1) == "v2" })
        #expect(counter.calls == 2)
    }

    @Test func aFailedReloadKeepsTheValueAndTriesAgainAtTheNextRead() async throws {
        let (lookup, memory) = makeLookup(.refreshAhead(after: .seconds(60)))
        _ = try await lookup.value(for: 1)
        counter.set(failing: true)
        await clock.advance(by: .seconds(60))
        #expect(try await lookup.value(for: 1) == "v1")
        #expect(await eventually { lookup.statistics.failedRefreshes == 1 })
        #expect(memory.value(forKey: 1) == "v1")
        counter.set(failing: false)
        #expect(try await lookup.value(for: 1) == "v1")  // due again: a second reload
        #expect(await eventually { memory.value(forKey: 1) == "v3" })
        #expect(lookup.statistics.refreshes == 2)
    }

    @Test func aKeyTheSourceNoLongerHasIsRemovedByItsReload() async throws {
        let (lookup, memory) = makeLookup(.refreshAhead(after: .seconds(60)))
        _ = try await lookup.value(for: 1)
        counter.set(gone: true)
        await clock.advance(by: .seconds(60))
        #expect(try await lookup.value(for: 1) == "v1")
        #expect(await eventually { memory.value(forKey: 1) == nil })
        await #expect(throws: LookupError<Int>.self) { try await lookup.value(for: 1) }
    }

    @Test func staleWhileRevalidateServesStaleInItsWindowThenWaits() async throws {
        let (lookup, memory) = makeLookup(.staleWhileRevalidate(maxAge: .seconds(60), staleFor: .seconds(300)))
        #expect(try await lookup.value(for: 1) == "v1")
        await clock.advance(by: .seconds(200))  // stale, within the window
        #expect(try await lookup.answer(for: 1).tier == "memory")
        #expect(await eventually { memory.value(forKey: 1) == "v2" })
        // Past both windows, without reads: gone, so the next lookup waits for the source.
        await clock.advance(by: .seconds(360))
        let answer = try await lookup.answer(for: 1)
        #expect(answer.tier == "source")
        #expect(answer.value == "v3")
    }

    @Test func aReloadDoesNotOverwriteAnInvalidationMadeDuringIt() async throws {
        let gate = CancellableGate()
        let calls = LockedValue(0)
        let source = LookupSource<Int, String>(name: "source") { _ in
            let call = calls.withLock { calls -> Int in
                calls += 1
                return calls
            }
            if call == 2 { try await gate.wait() }  // holds the reload
            return "v\(call)"
        }
        let memory = MemoryCache<Int, String>(clock: clock)
        let lookup = TieredLookup<Int, String>(
            [memory, source], refresh: .refreshAhead(after: .seconds(60)), clock: clock)
        _ = try await lookup.value(for: 1)
        await clock.advance(by: .seconds(60))
        #expect(try await lookup.value(for: 1) == "v1")
        await eventually { calls.withLock { $0 } == 2 }
        await lookup.invalidate(1)
        gate.open()
        let written = await eventually { memory.value(forKey: 1) != nil }
        #expect(!written)
        #expect(try await lookup.value(for: 1) == "v3")
    }
}
