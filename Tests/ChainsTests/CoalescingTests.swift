import BehaviorKitTesting
import Chains
import Testing

struct CoalescingTests {
    @Test func concurrentLookupsOfOneKeyShareOneCall() async throws {
        let gate = Gate()
        let source = CountingSource("catalog", table: [1: "one"], gate: gate)
        let catalog = Coalescing<Int, String>(source)
        #expect(catalog.name == "catalog")
        try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<10 { group.addTask { try await catalog.lookup(1) } }
            #expect(await eventually { catalog.coalesced == 9 })
            gate.open()
            for try await value in group { #expect(value == "one") }
        }
        #expect(source.calls == 1)
    }

    @Test func theSharedCallsErrorReachesEveryLookup() async {
        let gate = Gate()
        let source = CountingSource("catalog", table: [:], failing: true, gate: gate)
        let catalog = Coalescing<Int, String>(source)
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    do {
                        _ = try await catalog.lookup(1)
                        return false
                    } catch {
                        return error as? TestFailure == TestFailure("catalog is down")
                    }
                }
            }
            #expect(await eventually { catalog.coalesced == 2 })
            gate.open()
            for await threwTheSourcesError in group { #expect(threwTheSourcesError) }
        }
        #expect(source.calls == 1)
    }

    @Test func lookupsOneAfterAnotherEachCallAndKeepNothing() async throws {
        let source = CountingSource("catalog", table: [1: "one"])
        let catalog = Coalescing<Int, String>(source)
        #expect(try await catalog.lookup(1) == "one")
        #expect(try await catalog.lookup(2) == nil)
        #expect(try await catalog.lookup(1) == "one")
        #expect(source.calls == 3)
        #expect(catalog.coalesced == 0)
    }

    @Test func theCallIsCancelledWhenItsLastLookupLeaves() async {
        let source = ChangingSource()
        let catalog = Coalescing<Int, String>(source)
        let first = Task { try await catalog.lookup(1) }
        let second = Task { try await catalog.lookup(1) }
        #expect(await eventually { catalog.coalesced == 1 })
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        #expect(source.gate.cancellations == 0)
        second.cancel()
        await #expect(throws: CancellationError.self) { try await second.value }
        #expect(await eventually { source.gate.cancellations == 1 })
    }
}
