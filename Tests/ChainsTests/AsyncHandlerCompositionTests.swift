import BehaviorKitSync
import Chains
import Testing

/// Appends its tag to the input after a suspension, then passes it on.
private struct Tag: AsyncHandler {
    let tag: String
    func handle(_ input: String, next: (String) async throws -> String) async throws -> String {
        await Task.yield()
        return try await next(input + tag)
    }
}

/// Answers with its own value when the input is `question`, otherwise passes on.
private struct Answer: AsyncHandler {
    let question: String
    let answer: String
    func handle(_ input: String, next: (String) async throws -> String) async throws -> String {
        input == question ? answer : try await next(input)
    }
}

private struct Refusal: Error, Equatable {
    let input: String
}

/// Throws for `input`, otherwise passes on.
private struct Stop: AsyncHandler {
    let input: String
    func handle(_ input: String, next: (String) async throws -> String) async throws -> String {
        if input == self.input { throw Refusal(input: input) }
        return try await next(input)
    }
}

/// Wraps what the rest of the chain answers: the after-`next` half of a middleware.
private struct Wrap: AsyncHandler {
    func handle(_ input: String, next: (String) async throws -> String) async throws -> String {
        "[" + (try await next(input)) + "]"
    }
}

struct AsyncHandlerCompositionTests {
    @Test func builderRunsHandlersInOrderThenTheEnd() async throws {
        let chain = AsyncPipeline {
            Tag(tag: "a")
            Tag(tag: "b")
            Tag(tag: "c")
        }
        #expect(try await chain.run("") == "abc")
        #expect(try await chain.handle("", terminal: { $0 + "!" }) == "abc!")
    }

    @Test func aHandlerCanAnswerWithoutPassingOnOrWrapWhatComesBack() async throws {
        let chain = Wrap() |> Tag(tag: "x") |> Answer(question: "qx", answer: "42") |> Tag(tag: "never")
        #expect(try await chain.run("q") == "[42]")
        #expect(try await chain.run("p") == "[pxnever]")
    }

    @Test func aThrowingHandlerStopsTheChain() async {
        let chain = Tag(tag: "1") |> Stop(input: "s1") |> Tag(tag: "2")
        await #expect(throws: Refusal(input: "s1")) { try await chain.run("s") }
        #expect((try? await chain.run("t")) == "t12")
    }

    @Test func linkWithOperatorBuilderAndListAgree() async throws {
        let linked = Tag(tag: "a").link(with: Tag(tag: "b")).link(with: Tag(tag: "c"))
        let operated = Tag(tag: "a") |> Tag(tag: "b") |> Tag(tag: "c")
        let built = AsyncPipeline {
            Tag(tag: "a"); Tag(tag: "b"); Tag(tag: "c")
        }
        let listed = AsyncHandlerList<String, String>([Tag(tag: "a"), Tag(tag: "b"), Tag(tag: "c")])
        for chain in [linked as any AsyncHandler<String, String>, operated, built, listed] {
            #expect(try await chain.handle("", next: { $0 }) == "abc")
        }
    }

    @Test(arguments: [true, false])
    func builderControlFlow(flag: Bool) async throws {
        let chain = AsyncPipeline(of: String.self) {
            Tag(tag: "<")
            if flag { Tag(tag: "if") }
            if flag { Tag(tag: "then") } else { Answer(question: "<", answer: "else") }
            for tag in ["1", "2"] { Tag(tag: tag) }
        }
        #expect(try await chain.run("") == (flag ? "<ifthen12" : "else"))
    }

    @Test func synchronousHandlersAreStepsOfAnAsyncPipeline() async throws {
        let chain = AsyncPipeline {
            Tag(tag: "7963448020")
            LengthValidator(exactly: 11)
            MaskFormatter("+X (XXX) XXX XX-XX")
            Tag(tag: "!")
        }
        #expect(try await chain.run("9") == "+9 (796) 344 80-20!")
        await #expect(throws: RuleViolation.self) { try await chain.run("12") }
    }

    @Test func aListIsAssembledAtRunTime() async throws {
        var list = AsyncHandlerList<String, String>()
        #expect(try await list.run("empty") == "empty")
        list.append(Tag(tag: "1"))
        list.append(Stop(input: "x1"))
        list.append(AsyncClosureHandler { input, next in try await next(input.uppercased()) })
        #expect(try await list.run("a") == "A1")
        await #expect(throws: Refusal(input: "x1")) { try await list.run("x") }
        #expect(list.handlers.count == 3)
    }

    @Test func chainsNest() async throws {
        let inner = AsyncPipeline { Tag(tag: "i") }
        let outer = Tag(tag: "o") |> inner |> AsyncHandlerList([Tag(tag: "l")])
        #expect(try await outer.run("") == "oil")
    }

    @Test func handlersRunOnTheCallersTaskAndSeeItsCancellation() async {
        let sawCancellation = LockedValue(false)
        let chain = AsyncPipeline(of: String.self) {
            Tag(tag: "a")
            AsyncClosureHandler { input, next in
                sawCancellation.withLock { $0 = Task.isCancelled }
                try Task.checkCancellation()
                return try await next(input)
            }
        }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await chain.run("")
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(sawCancellation.withLock { $0 })
    }
}
