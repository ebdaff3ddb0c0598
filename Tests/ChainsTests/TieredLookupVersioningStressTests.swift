import BehaviorKitSync
import Chains
import Testing

/// Loads racing with stores, invalidations and cancellations on a few keys, from many tasks (run
/// under ThreadSanitizer in CI).
struct TieredLookupVersioningStressTests {
    /// A source that answers `load <n>` and yields on the way, so that loads overlap the rest.
    static func source(calls: LockedValue<Int>) -> LookupSource<Int, String> {
        LookupSource(name: "source") { _ in
            let call = calls.withLock { calls -> Int in
                calls += 1
                return calls
            }
            for _ in 0..<(call % 4) { await Task.yield() }
            return "load \(call)"
        }
    }

    @Test func theLastStoreWinsOverEveryLoadRacingWithItStress() async throws {
        let calls = LockedValue(0)
        let memory = MemoryCache<Int, String>(countLimit: 100)
        let disk = MemoryCache<Int, String>(name: "disk", countLimit: 100)
        let lookup = TieredLookup<Int, String>([memory, disk, Self.source(calls: calls)])
        for round in 0..<50 {
            let key = round % 5
            await lookup.invalidate(key)
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        _ = try? await lookup.value(for: key, policy: task % 3 == 0 ? .reload : .default)
                    }
                }
                group.addTask { await lookup.store("stored \(round)", for: key) }
                for _ in 0..<4 {
                    group.addTask {
                        let cancelled = Task { try await lookup.value(for: key, policy: .reload) }
                        cancelled.cancel()
                        _ = try? await cancelled.value
                    }
                }
            }
            // Every load that started before the store was made is stale; those after it hit the
            // stored value (or reload it from the source and write that back, which is newer).
            let inMemory = memory.value(forKey: key)
            let onDisk = disk.value(forKey: key)
            #expect(inMemory == onDisk || inMemory == nil || onDisk == nil, "round \(round)")
            #expect(inMemory != nil, "round \(round)")
        }
    }

    @Test func invalidationsRacingWithLoadsNeverLeaveAValueLoadedBeforeThemStress() async throws {
        let calls = LockedValue(0)
        let memory = MemoryCache<Int, String>(countLimit: 100)
        let lookup = TieredLookup<Int, String>([memory, Self.source(calls: calls)])
        for round in 0..<50 {
            let key = round % 3
            let callsBefore = await withTaskGroup(of: Int?.self) { group -> Int in
                for _ in 0..<6 {
                    group.addTask {
                        _ = try? await lookup.value(for: key); return nil
                    }
                }
                group.addTask {
                    let before = calls.withLock { $0 }
                    await lookup.invalidate(key)
                    return before
                }
                var callsBefore = 0
                for await value in group { if let value { callsBefore = value } }
                return callsBefore
            }
            // What memory holds now was loaded by a source call made after the invalidation
            // began, or there is no value at all.
            if let value = memory.value(forKey: key), let call = Int(value.dropFirst("load ".count)) {
                #expect(call > callsBefore, "round \(round): \(value), \(callsBefore) calls before")
            }
        }
    }
}
