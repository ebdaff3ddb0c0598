import Benchmark
import Chains
import Foundation

// Hot path `X` is paired with `X.floor`, the same work written by hand, in the same run; the
// ratio X / X.floor is the figure. Each sample runs `scaledIterations` operations.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput], timeUnits: .nanoseconds, scalingFactor: .mega,
        maxDuration: .seconds(2), maxIterations: 50)

    // Pipelines: four handlers composed by the builder, by a runtime list, and written inline.
    let builder4 = Pipeline {
        AddOne()
        Below(limit: limit)
        TimesThree()
        XorMask(mask: mask)
    }
    let list4 = HandlerList<Int, Int>([AddOne(), Below(limit: limit), TimesThree(), XorMask(mask: mask)])

    // Sub-nanosecond steps: each sample runs 1,000,000 pipelines in its own loop and reports the
    // time of the whole sample (ns per pipeline = the figure / 1,000,000), for precision.
    let perSample = Benchmark.Configuration(
        metrics: [.wallClock], timeUnits: .nanoseconds, scalingFactor: .one, maxDuration: .seconds(2),
        maxIterations: 50)
    let runs = 1_000_000

    Benchmark("Pipeline.builder4", configuration: perSample) { _ in
        var sum = 0
        for index in 0..<runs { sum &+= (try? builder4.run(index)) ?? 0 }
        blackHole(sum)
    }
    Benchmark("Pipeline.builder4.floor", configuration: perSample) { _ in
        var sum = 0
        for index in 0..<runs { sum &+= (try? inlineSteps(index)) ?? 0 }
        blackHole(sum)
    }
    Benchmark("Pipeline.list4", configuration: perSample) { _ in
        var sum = 0
        for index in 0..<runs { sum &+= (try? list4.run(index)) ?? 0 }
        blackHole(sum)
    }
    Benchmark("Pipeline.list4.floor", configuration: perSample) { _ in
        var sum = 0
        for index in 0..<runs { sum &+= (try? inlineSteps(index)) ?? 0 }
        blackHole(sum)
    }

    // Asynchronous pipelines: the same four steps as async handlers that never suspend, against
    // the four steps written inline in one async function.
    let asyncBuilder4 = AsyncPipeline {
        AsyncAddOne()
        AsyncBelow(limit: limit)
        AsyncTimesThree()
        AsyncXorMask(mask: mask)
    }
    let steps = Steps(limit: limit, mask: mask)
    let asyncList4 = AsyncHandlerList<Int, Int>([
        AsyncAddOne(), AsyncBelow(limit: limit), AsyncTimesThree(), AsyncXorMask(mask: mask),
    ])

    Benchmark("AsyncPipeline.builder4", configuration: perSample) { _ async in
        blackHole(await sumOfRuns(asyncBuilder4, runs))
    }
    Benchmark("AsyncPipeline.builder4.floor", configuration: perSample) { _ async in
        blackHole(await sumOfInlineSteps(steps, runs))
    }
    Benchmark("AsyncPipeline.list4", configuration: perSample) { _ async in
        blackHole(await sumOfRuns(asyncList4, runs))
    }
    Benchmark("AsyncPipeline.list4.floor", configuration: perSample) { _ async in
        blackHole(await sumOfInlineSteps(steps, runs))
    }
    // From a `@concurrent` caller (a module without NonisolatedNonsendingByDefault), the
    // pipeline's `run` checks its executor once per run.
    Benchmark("AsyncPipeline.builder4FromConcurrent", configuration: perSample) { _ async in
        var sum = 0
        for index in 0..<runs { sum &+= (try? await asyncBuilder4.run(index)) ?? 0 }
        blackHole(sum)
    }
    Benchmark("AsyncPipeline.builder4FromConcurrent.floor", configuration: perSample) { _ async in
        var sum = 0
        for index in 0..<runs { sum &+= (try? await inlineConcurrentSteps(index, steps)) ?? 0 }
        blackHole(sum)
    }

    // Caches: a hit among 10,000 entries, at random keys.
    let entries = 10_000
    let keys = randomKeys(below: entries)
    let keyMask = keys.count - 1
    let memory = MemoryCache<Int, Int>(countLimit: entries)
    let floor = LockedDictionary()
    let nsCache = NSCache<NSNumber, NSNumber>()
    for key in 0..<entries {
        memory.setValue(key, forKey: key)
        floor.dictionary[key] = key
        nsCache.setObject(NSNumber(value: key), forKey: NSNumber(value: key))
    }
    let nsKeys = keys.map { NSNumber(value: $0) }

    Benchmark("MemoryCache.hit") { benchmark in
        var sum = 0
        for index in benchmark.scaledIterations { sum &+= memory.value(forKey: keys[index & keyMask]) ?? 0 }
        blackHole(sum)
    }
    Benchmark("MemoryCache.hit.floor") { benchmark in
        var sum = 0
        for index in benchmark.scaledIterations { sum &+= floor.value(forKey: keys[index & keyMask]) ?? 0 }
        blackHole(sum)
    }
    Benchmark("MemoryCache.hit.peer.NSCache") { benchmark in
        var sum = 0
        for index in benchmark.scaledIterations {
            sum &+= nsCache.object(forKey: nsKeys[index & keyMask])?.intValue ?? 0
        }
        blackHole(sum)
    }

    // A tiered lookup answered by its first tier, against the same memory hit alone.
    let lookup = TieredLookup<Int, Int>([memory, LookupSource(name: "source") { $0 }])

    Benchmark("TieredLookup.hit") { benchmark async in
        var sum = 0
        for index in benchmark.scaledIterations { sum &+= (try? await lookup.value(for: keys[index & keyMask])) ?? 0 }
        blackHole(sum)
    }
    Benchmark("TieredLookup.hit.floor") { benchmark async in
        var sum = 0
        for index in benchmark.scaledIterations { sum &+= memory.value(forKey: keys[index & keyMask]) ?? 0 }
        blackHole(sum)
    }
}
