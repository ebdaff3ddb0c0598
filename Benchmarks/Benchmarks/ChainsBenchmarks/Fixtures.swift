import BehaviorKitSync
import Chains

/// Four cheap steps, so that what the pipeline benchmarks measure is the chaining itself.
struct AddOne: Handler {
    @inlinable
    func handle(_ input: Int, next: (Int) throws -> Int) throws -> Int { try next(input &+ 1) }
}

struct Below: Handler {
    let limit: Int
    @inlinable
    func handle(_ input: Int, next: (Int) throws -> Int) throws -> Int {
        if input >= limit { throw TooLarge(value: input) }
        return try next(input)
    }
}

struct TimesThree: Handler {
    @inlinable
    func handle(_ input: Int, next: (Int) throws -> Int) throws -> Int { try next(input &* 3) }
}

struct XorMask: Handler {
    let mask: Int
    @inlinable
    func handle(_ input: Int, next: (Int) throws -> Int) throws -> Int { try next(input ^ mask) }
}

struct TooLarge: Error {
    let value: Int
}

let limit = Int.max / 4
let mask = 0x5A5A

/// The same four steps written inline: the floor of both pipeline benchmarks.
@inline(__always)
func inlineSteps(_ input: Int) throws(TooLarge) -> Int {
    var value = input &+ 1
    if value >= limit { throw TooLarge(value: value) }
    value = value &* 3
    return value ^ mask
}

/// A `Lock`-guarded dictionary: the floor of the cache benchmarks.
final class LockedDictionary: @unchecked Sendable {
    let lock = Lock()
    var dictionary: [Int: Int] = [:]

    @inline(__always)
    func value(forKey key: Int) -> Int? {
        lock.withLock { dictionary[key] }
    }
}

/// Keys in 0..<count in a fixed pseudo-random order, `1 << 16` of them.
func randomKeys(below count: Int) -> [Int] {
    var state: UInt64 = 0x5EED
    return (0..<(1 << 16)).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(count))
    }
}

/// The same four steps as asynchronous handlers that never suspend. (This package is built
/// without `NonisolatedNonsendingByDefault`, so `next` spells its isolation.)
struct AsyncAddOne: AsyncHandler {
    @inlinable
    func handle(_ input: Int, next: nonisolated(nonsending) (Int) async throws -> Int) async throws -> Int {
        try await next(input &+ 1)
    }
}

struct AsyncBelow: AsyncHandler {
    let limit: Int
    @inlinable
    func handle(_ input: Int, next: nonisolated(nonsending) (Int) async throws -> Int) async throws -> Int {
        if input >= limit { throw TooLarge(value: input) }
        return try await next(input)
    }
}

struct AsyncTimesThree: AsyncHandler {
    @inlinable
    func handle(_ input: Int, next: nonisolated(nonsending) (Int) async throws -> Int) async throws -> Int {
        try await next(input &* 3)
    }
}

struct AsyncXorMask: AsyncHandler {
    let mask: Int
    @inlinable
    func handle(_ input: Int, next: nonisolated(nonsending) (Int) async throws -> Int) async throws -> Int {
        try await next(input ^ mask)
    }
}

/// The limit and mask of the four steps, handed to the async floor as the pipeline's handlers
/// hold theirs, so that neither is compiled with them as constants.
struct Steps {
    let limit: Int
    let mask: Int
}

/// The same four steps written inline in one async function: the floor of the async pipeline
/// benchmarks, inlined into the loop as the synchronous floor is.
@inline(__always)
nonisolated(nonsending) func inlineAsyncSteps(_ input: Int, _ steps: Steps) async throws -> Int {
    var value = input &+ 1
    if value >= steps.limit { throw TooLarge(value: value) }
    value = value &* 3
    return value ^ steps.mask
}

/// `inlineAsyncSteps` as a `@concurrent` function (the default for `nonisolated async` in a module
/// without `NonisolatedNonsendingByDefault`), the floor of calls from such a caller.
@inline(__always)
@concurrent func inlineConcurrentSteps(_ input: Int, _ steps: Steps) async throws -> Int {
    var value = input &+ 1
    if value >= steps.limit { throw TooLarge(value: value) }
    value = value &* 3
    return value ^ steps.mask
}

// The loops of the async benchmarks run in functions that stay on their caller's executor, as
// every async function does under `NonisolatedNonsendingByDefault` (BehaviorKit's setting, and
// Swift's direction); this package does not enable it, so they spell it.

@inline(never)
nonisolated(nonsending) func sumOfRuns(_ chain: some AsyncHandler<Int, Int>, _ runs: Int) async -> Int {
    var sum = 0
    for index in 0..<runs { sum &+= (try? await chain.run(index)) ?? 0 }
    return sum
}

@inline(never)
nonisolated(nonsending) func sumOfInlineSteps(_ steps: Steps, _ runs: Int) async -> Int {
    var sum = 0
    for index in 0..<runs { sum &+= (try? await inlineAsyncSteps(index, steps)) ?? 0 }
    return sum
}
