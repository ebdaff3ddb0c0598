import Chains
import Testing

/// Appends its tag to the input, then passes it on.
private struct Tag: Handler {
    let tag: String
    func handle(_ input: String, next: (String) throws -> String) throws -> String {
        try next(input + tag)
    }
}

/// Answers with its own value when the input is `question`, otherwise passes on.
private struct Answer: Handler {
    let question: String
    let answer: String
    func handle(_ input: String, next: (String) throws -> String) throws -> String {
        input == question ? answer : try next(input)
    }
}

private struct Refusal: Error, Equatable {
    let input: String
}

/// Throws for `input`, otherwise passes on.
private struct Stop: Handler {
    let input: String
    func handle(_ input: String, next: (String) throws -> String) throws -> String {
        if input == self.input { throw Refusal(input: input) }
        return try next(input)
    }
}

struct HandlerCompositionTests {
    @Test func builderRunsHandlersInOrderThenTheEnd() throws {
        let chain = Pipeline {
            Tag(tag: "a")
            Tag(tag: "b")
            Tag(tag: "c")
        }
        #expect(try chain.run("") == "abc")
        #expect(try chain.handle("", terminal: { $0 + "!" }) == "abc!")
    }

    @Test func aHandlerCanAnswerWithoutPassingOn() throws {
        let chain = Tag(tag: "x") |> Answer(question: "qx", answer: "42") |> Tag(tag: "never")
        #expect(try chain.run("q") == "42")
        #expect(try chain.run("p") == "pxnever")
    }

    @Test func aThrowingHandlerStopsTheChain() {
        let chain = Tag(tag: "1") |> Stop(input: "s1") |> Tag(tag: "2")
        #expect(throws: Refusal(input: "s1")) { try chain.run("s") }
        #expect((try? chain.run("t")) == "t12")
    }

    @Test func linkWithAndOperatorAndBuilderAgree() throws {
        let linked = Tag(tag: "a").link(with: Tag(tag: "b")).link(with: Tag(tag: "c"))
        let operated = Tag(tag: "a") |> Tag(tag: "b") |> Tag(tag: "c")
        let listed = HandlerList<String, String>([Tag(tag: "a"), Tag(tag: "b"), Tag(tag: "c")])
        #expect(try linked.run("") == "abc")
        #expect(try operated.run("") == "abc")
        #expect(try listed.run("") == "abc")
    }

    @Test(arguments: [true, false])
    func builderControlFlow(flag: Bool) throws {
        let chain = Pipeline(of: String.self) {
            Tag(tag: "<")
            if flag { Tag(tag: "if") }
            if flag { Tag(tag: "then") } else { Answer(question: "<", answer: "else") }
            for tag in ["1", "2"] { Tag(tag: tag) }
        }
        #expect(try chain.run("") == (flag ? "<ifthen12" : "else"))
    }

    @Test func handlerListIsAssembledAtRunTime() throws {
        var list = HandlerList<String, String>()
        #expect(try list.run("empty") == "empty")
        list.append(Tag(tag: "1"))
        list.append(Stop(input: "x1"))
        list.append(ClosureHandler { input, next in try next(input.uppercased()) })
        #expect(try list.run("a") == "A1")
        #expect(throws: Refusal(input: "x1")) { try list.run("x") }
        #expect(list.handlers.count == 3)
    }

    @Test func chainsNest() throws {
        let inner = Pipeline { Tag(tag: "i") }
        let outer = Tag(tag: "o") |> inner |> HandlerList([Tag(tag: "l")])
        #expect(try outer.run("") == "oil")
    }
}
