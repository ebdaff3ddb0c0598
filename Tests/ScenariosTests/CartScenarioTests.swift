import Commands
import Scenarios
import Testing

struct CartScenarioTests {
    @Test func theScriptedSessionPrintsTheCartAfterEachStep() async {
        let (console, recording) = Console.recording()
        let errors = await CartScenario.run(lines: CartScenario.scriptedLines, console: console, echo: true)
        #expect(errors == 0)
        #expect(recording.text == Self.scriptedTrace)
    }

    static let scriptedTrace = """
        > add apple 2
        cart: 2 apples
        > add pear 3
        cart: 2 apples, 3 pears
        > reduce apple 1
        cart: 1 apple, 3 pears
        > reduce pear 5
        cannot reduce pear by 5: the cart has 3
        cart: 1 apple, 3 pears
        > undo
        Undid Reduce 1 apple
        cart: 2 apples, 3 pears
        > redo
        Redid Reduce 1 apple
        cart: 1 apple, 3 pears
        > add plum 4
        cart: 1 apple, 3 pears, 4 plums
        > undo at 1
        Undid Add 3 pears
        cart: 1 apple, 4 plums
        > history
        can undo: [0] Add 2 apples, [1] Reduce 1 apple, [2] Add 4 plums
        can redo: Add 3 pears
        cart: 1 apple, 4 plums
        > undo all
        Undid 3 actions
        cart: empty
        > undo
        nothing to undo
        cart: empty
        > redo
        Redid Add 2 apples
        cart: 2 apples
        """

    @Test func aMalformedLineIsAnErrorNamingItAndTheSessionGoesOn() async {
        let (console, recording) = Console.recording()
        let errors = await CartScenario.run(
            lines: ["add apple 2", "fly away", "add pear lots", "", "undo at x", "reduce apple 1"], console: console,
            echo: false)
        #expect(errors == 3)
        #expect(
            recording.lines == [
                "cart: 2 apples",
                "error: line 2: 'fly away': expected add ITEM COUNT, reduce ITEM COUNT, undo, undo all, undo at INDEX, redo, history",
                "cart: 2 apples",
                "error: line 3: 'add pear lots': expected add ITEM COUNT, COUNT a whole number above 0",
                "cart: 2 apples",
                "error: line 5: 'undo at x': expected undo at INDEX, INDEX a whole number",
                "cart: 2 apples",
                "cart: 1 apple",
            ])
    }

    @Test func reducingBelowZeroLeavesCartAndHistoryUnchanged() async throws {
        let cart = ShoppingCart()
        let history = UndoHistory()
        try await history.perform(cart.adding("apple", 2))
        await #expect(throws: CartError.notEnough(item: "apple", requested: 3, available: 2)) {
            try await history.perform(cart.reducing("apple", 3))
        }
        #expect(cart.summary == "2 apples")
        #expect(history.undoActionNames == ["Add 2 apples"])
    }

    /// The article's receiver and invoker: undo the last, undo all, undo the one at an index.
    @Test func theReceiverWithUndoLastUndoAllAndUndoAtIndex() async throws {
        let cart = ShoppingCart()
        let history = UndoHistory()
        try await history.perform(cart.adding("apple", 2))
        try await history.perform(cart.adding("pear", 1))
        try await history.perform(cart.adding("plum", 5))
        try await history.perform(cart.reducing("apple", 1))

        try await history.undo()
        #expect(history.redoActionName == "Reduce 1 apple")
        #expect(cart.summary == "2 apples, 1 pear, 5 plums")
        try await history.undo(at: 1)
        #expect(history.redoActionName == "Add 1 pear")
        #expect(cart.summary == "2 apples, 5 plums")
        #expect(try await history.undoAll() == 2)
        #expect(cart.summary == "empty")
        #expect(history.redoActionNames == ["Add 2 apples", "Add 5 plums", "Add 1 pear", "Reduce 1 apple"])
    }

    @Test func namesReadAsMenus() async throws {
        let cart = ShoppingCart()
        let history = UndoHistory()
        try await history.perform(cart.adding("apple", 2))
        #expect(history.status.undoMenuTitle == "Undo Add 2 apples")
        #expect(cart.adding("peach", 3).name == "Add 3 peaches")
        #expect(cart.adding("cherry", 2).name == "Add 2 cherries")
        #expect(cart.reducing("box", 2).name == "Reduce 2 boxes")
    }
}
