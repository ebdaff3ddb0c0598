import Commands

/// Scenario 2: a shopping cart whose edits are commands in an undo history.
public enum CartScenario {
    /// The scripted session: add, reduce (once too many), undo, redo, undo at an index, undo all.
    public static let scriptedLines = [
        "add apple 2", "add pear 3", "reduce apple 1", "reduce pear 5", "undo", "redo", "add plum 4", "undo at 1",
        "history", "undo all", "undo", "redo",
    ]

    /// Runs `lines` against a new cart and history, printing the cart after each step. With
    /// `echo`, each line is printed first, after "> ".
    ///
    /// A refused edit prints why and leaves cart and history unchanged; a malformed line prints
    /// an error naming it, and the session goes on.
    ///
    /// - Returns: the number of malformed lines.
    public static func run(lines: some Sequence<String>, console: Console, echo: Bool) async -> Int {
        let cart = ShoppingCart()
        let history = UndoHistory()
        var errors = 0
        var number = 0
        for text in lines {
            number += 1
            guard !text.allSatisfy(\.isWhitespace) else { continue }
            if echo { console.print("> \(text)") }
            do {
                let line = try CartLine(parsing: text, lineNumber: number)
                await perform(line, cart: cart, history: history, console: console)
            } catch {
                errors += 1
                console.print("error: \(error)")
            }
            console.print("cart: \(cart.summary)")
        }
        return errors
    }

    static func perform(_ line: CartLine, cart: ShoppingCart, history: UndoHistory, console: Console) async {
        do {
            switch line {
            case .add(let item, let count): try await history.perform(cart.adding(item, count))
            case .reduce(let item, let count): try await history.perform(cart.reducing(item, count))
            case .undo:
                try await history.undo()
                console.print("Undid \(history.redoActionName ?? "")")
            case .undoAt(let index):
                try await history.undo(at: index)
                console.print("Undid \(history.redoActionName ?? "")")
            case .undoAll:
                let count = try await history.undoAll()
                console.print("Undid \(quantity(count, "action"))")
            case .redo:
                try await history.redo()
                console.print("Redid \(history.undoActionName ?? "")")
            case .history:
                let undo = history.undoActionNames.enumerated().map { "[\($0.offset)] \($0.element)" }
                let redo = history.redoActionNames
                console.print("can undo: \(undo.isEmpty ? "nothing" : undo.joined(separator: ", "))")
                console.print("can redo: \(redo.isEmpty ? "nothing" : redo.joined(separator: ", "))")
            }
        } catch {
            console.print("\(error)")
        }
    }

    /// "1 apple", "2 apples", "3 peaches".
    static func quantity(_ count: Int, _ item: String) -> String {
        guard count != 1 else { return "\(count) \(item)" }
        if item.hasSuffix("s") || item.hasSuffix("x") || item.hasSuffix("ch") || item.hasSuffix("sh") {
            return "\(count) \(item)es"
        }
        if item.hasSuffix("y"), let before = item.dropLast().last, !"aeiou".contains(before) {
            return "\(count) \(item.dropLast())ies"
        }
        return "\(count) \(item)s"
    }

    /// The tour's stop: the scripted session.
    public static let tourStop = TourStop(command: "cart", title: "Cart: undo history over commands") { console in
        _ = await run(lines: scriptedLines, console: console, echo: true)
    }
}
