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

    @Test func addingPastTheLargestCountIsRefusedAndTheSessionGoesOn() async {
        let (console, recording) = Console.recording()
        let errors = await CartScenario.run(
            lines: [
                "add apple 9223372036854775807", "add apple 1", "add pear 1", "history", "add plum 9223372036854775808",
            ],
            console: console, echo: false)
        #expect(errors == 1)
        #expect(
            recording.lines == [
                "cart: 9223372036854775807 apples",
                "cannot add apple by 1: the cart has 9223372036854775807, the most it can hold",
                "cart: 9223372036854775807 apples",
                "cart: 9223372036854775807 apples, 1 pear",
                "can undo: [0] Add 9223372036854775807 apples, [1] Add 1 pear",
                "can redo: nothing",
                "cart: 9223372036854775807 apples, 1 pear",
                "error: line 5: 'add plum 9223372036854775808': COUNT 9223372036854775808 is more than the most a cart holds, 9223372036854775807",
                "cart: 9223372036854775807 apples, 1 pear",
            ])
    }

    /// Undoing a reduction adds the goods back: at an index, that can pass the largest count too.
    @Test func undoingAReductionPastTheLargestCountIsRefused() async {
        let (console, recording) = Console.recording()
        _ = await CartScenario.run(
            lines: ["add apple 9223372036854775807", "reduce apple 1", "add apple 1", "undo at 1", "history"],
            console: console, echo: false)
        #expect(
            recording.lines.suffix(5) == [
                "could not undo 'Reduce 1 apple': cannot add apple by 1: the cart has 9223372036854775807, the most it can hold",
                "cart: 9223372036854775807 apples",
                "can undo: [0] Add 9223372036854775807 apples, [1] Reduce 1 apple, [2] Add 1 apple",
                "can redo: nothing",
                "cart: 9223372036854775807 apples",
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
