import Testing

struct CartCommandTests {
    @Test func runsTheScriptedSession() throws {
        let result = try CLIRunner.run(["cart"])
        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput.hasPrefix("> add apple 2\ncart: 2 apples\n> add pear 3\ncart: 2 apples, 3 pears\n"))
        #expect(
            result.standardOutput.hasSuffix(
                "> undo all\nUndid 3 actions\ncart: empty\n> undo\nnothing to undo\ncart: empty\n> redo\nRedid Add 2 apples\ncart: 2 apples\n"
            ))
    }

    @Test func interactiveReadsStandardInput() throws {
        let result = try CLIRunner.run(
            ["cart", "--interactive"], input: "add apple 2\nreduce apple 5\nreduce apple 1\nundo\nredo\nhistory\n")
        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput == """
                cart: 2 apples
                cannot reduce apple by 5: the cart has 2
                cart: 2 apples
                cart: 1 apple
                Undid Reduce 1 apple
                cart: 2 apples
                Redid Reduce 1 apple
                cart: 1 apple
                can undo: [0] Add 2 apples, [1] Reduce 1 apple
                can redo: nothing
                cart: 1 apple

                """)
    }

    @Test func interactiveMalformedLinesAreErrorsAndTheSessionGoesOn() throws {
        let result = try CLIRunner.run(["cart", "--interactive"], input: "add apple\nadd apple 1\n")
        #expect(result.exitCode != 0)
        #expect(
            result.standardOutput == """
                error: line 1: 'add apple': expected add ITEM COUNT, COUNT a whole number above 0
                cart: empty
                cart: 1 apple

                """)
    }

    @Test func interactiveOverflowIsAnErrorLineNotACrash() throws {
        let result = try CLIRunner.run(
            ["cart", "--interactive"], input: "add apple 9223372036854775807\nadd apple 1\nreduce apple 2\n")
        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput == """
                cart: 9223372036854775807 apples
                cannot add apple by 1: the cart has 9223372036854775807, the most it can hold
                cart: 9223372036854775807 apples
                cart: 9223372036854775805 apples

                """)
    }

    @Test func theTourShowsBothScenarios() throws {
        let result = try CLIRunner.run(["tour"])
        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput.contains(
                "== Garage: commands, a transaction, a batch invoker (behaviorkit garage) ==\n"))
        #expect(result.standardOutput.contains("== Cart: undo history over commands (behaviorkit cart) ==\n"))
        #expect(result.standardOutput.contains("Finished: 5, failed: 0\n"))
    }
}
