import BehaviorKitSync
import Chains
import Testing

/// What `handle(_:next:)`'s documentation says of calling `next` more than once: each call runs
/// the rest of the chain again, side effects included, and the handler's own answer wins.
struct HandlerNextTests {
    /// Records the inputs that reach it, then passes on.
    struct Count: Handler {
        let seen: LockedValue<[String]>
        func handle(_ input: String, next: (String) throws -> String) throws -> String {
            seen.withLock { $0.append(input) }
            return try next(input)
        }
    }

    /// ``Count``, awaiting.
    struct AsyncCount: AsyncHandler {
        let seen: LockedValue<[String]>
        func handle(_ input: String, next: (String) async throws -> String) async throws -> String {
            seen.withLock { $0.append(input) }
            return try await next(input)
        }
    }

    /// Calls `next` twice, with `1` then `2` appended, and answers with the first result.
    struct Twice: Handler {
        func handle(_ input: String, next: (String) throws -> String) throws -> String {
            let first = try next(input + "1")
            _ = try next(input + "2")
            return first
        }
    }

    /// ``Twice``, awaiting.
    struct AsyncTwice: AsyncHandler {
        func handle(_ input: String, next: (String) async throws -> String) async throws -> String {
            let first = try await next(input + "1")
            _ = try await next(input + "2")
            return first
        }
    }

    @Test func callingNextTwiceRunsTheRestOfAComposedChainTwice() throws {
        let seen = LockedValue<[String]>([])
        let ends = LockedValue(0)
        let chain = Pipeline {
            Count(seen: seen)
            Twice()
            Count(seen: seen)
        }
        let answer = try chain.handle("x") { input in
            ends.withLock { $0 += 1 }
            return input + "!"
        }
        #expect(answer == "x1!")  // the handler's choice of the two results
        #expect(seen.withLock { $0 } == ["x", "x1", "x2"])  // the handler before it ran once
        #expect(ends.withLock { $0 } == 2)  // and the chain's end twice
    }

    @Test func callingNextTwiceRunsTheRestOfAHandlerListTwice() throws {
        let seen = LockedValue<[String]>([])
        let list = HandlerList<String, String>([Twice(), Count(seen: seen), Count(seen: seen)])
        #expect(try list.run("y") == "y1")
        #expect(seen.withLock { $0 } == ["y1", "y1", "y2", "y2"])
    }

    @Test func callingNextTwiceRunsTheRestOfAnAsyncChainTwice() async throws {
        let seen = LockedValue<[String]>([])
        let pipeline = AsyncPipeline {
            AsyncTwice()
            AsyncCount(seen: seen)
        }
        #expect(try await pipeline.run("z") == "z1")
        let list = AsyncHandlerList<String, String>([AsyncTwice(), AsyncCount(seen: seen)])
        #expect(try await list.run("w") == "w1")
        #expect(seen.withLock { $0 } == ["z1", "z2", "w1", "w2"])
    }

    /// The retry of the documentation's example: the rest of the chain runs again after a failure.
    @Test func aRetryRunsTheRestOfTheChainAgain() throws {
        struct Flaky: Error {}
        let attempts = LockedValue(0)
        let retryOnce = ClosureHandler<String, String> { request, next in
            do { return try next(request) } catch { return try next(request) }
        }
        let answer = try retryOnce.handle("r") { input in
            let attempt = attempts.withLock { count -> Int in
                count += 1
                return count
            }
            if attempt == 1 { throw Flaky() }
            return input + " on attempt \(attempt)"
        }
        #expect(answer == "r on attempt 2")
    }
}
