import Commands
import PropertyBased
import Testing

/// Random cart sessions checked against a plain reference model. PropertyBased seeds every
/// run and prints the seed of a failing one (`.fixedSeed(…)` replays it).
struct UndoHistoryPropertyTests {
    static let items = ["apple", "pear", "plum"]

    /// An edit or a history operation, decoded from a random integer.
    enum Operation: CustomStringConvertible {
        case add(String, Int), reduce(String, Int), undo, redo, undoAt(Int), markClean

        init(_ code: Int) {
            let item = UndoHistoryPropertyTests.items[(code / 6) % 3]
            let count = (code / 18) % 4 + 1
            switch code % 6 {
            case 0: self = .add(item, count)
            case 1: self = .reduce(item, count)
            case 2: self = .undo
            case 3: self = .redo
            case 4: self = .undoAt(code / 72)
            default: self = .markClean
            }
        }

        var description: String {
            switch self {
            case .add(let item, let count): "add \(item) \(count)"
            case .reduce(let item, let count): "reduce \(item) \(count)"
            case .undo: "undo"
            case .redo: "redo"
            case .undoAt(let index): "undo at \(index)"
            case .markClean: "mark clean"
            }
        }
    }

    static let operations = Gen.int(in: 0...2_000).array(of: 0...40)

    @Test func undoAllEmptiesTheCartAndRedoAllRestoresIt() async {
        await propertyCheck(input: Self.operations) { codes in
            let cart = TestCart()
            let history = UndoHistory()
            for code in codes {
                switch Operation(code) {
                case .add(let item, let count):
                    try? await history.perform(AddGoods(cart: cart, item: item, count: count))
                case .reduce(let item, let count):
                    try? await history.perform(ReduceGoods(cart: cart, item: item, count: count))
                default: break
                }
            }
            let edited = cart.contents
            let steps = try? await history.undoAll()
            #expect(cart.contents.isEmpty)
            for _ in 0..<(steps ?? 0) { try? await history.redo() }
            #expect(cart.contents == edited)
        }
    }

    @Test func randomInterleavingsFollowTheReferenceModel() async {
        await propertyCheck(input: Self.operations) { codes in
            let cart = TestCart()
            let history = UndoHistory()
            var model = Model()
            for code in codes {
                let operation = Operation(code)
                switch operation {
                case .add(let item, let count):
                    try? await history.perform(AddGoods(cart: cart, item: item, count: count))
                case .reduce(let item, let count):
                    try? await history.perform(ReduceGoods(cart: cart, item: item, count: count))
                case .undo: try? await history.undo()
                case .redo: try? await history.redo()
                case .undoAt(let index): try? await history.undo(at: index % 8)
                case .markClean: history.markClean()
                }
                model.apply(operation)
                #expect(cart.contents == model.cart, "after \(operation)")
                #expect(history.undoActionNames == model.done.map(\.name), "after \(operation)")
                #expect(history.redoActionNames == model.undone.reversed().map(\.name), "after \(operation)")
                if history.isClean { #expect(cart.contents == model.saved, "clean after \(operation)") }
            }
        }
    }

    /// The history as two plain stacks of edits, and the cart as a dictionary.
    struct Model {
        struct Edit {
            var item: String, count: Int, adds: Bool
            var name: String { "\(adds ? "Add" : "Reduce") \(count) \(item)" }
        }

        var cart: [String: Int] = [:]
        var saved: [String: Int] = [:]
        var done: [Edit] = []
        var undone: [Edit] = []

        mutating func change(_ item: String, by delta: Int) -> Bool {
            let now = cart[item, default: 0] + delta
            guard now >= 0 else { return false }
            cart[item] = now == 0 ? nil : now
            return true
        }

        mutating func apply(_ operation: Operation) {
            switch operation {
            case .add(let item, let count), .reduce(let item, let count):
                let edit = Edit(item: item, count: count, adds: { if case .add = operation { true } else { false } }())
                if change(item, by: edit.adds ? count : -count) {
                    done.append(edit)
                    undone.removeAll()
                }
            case .undo:
                if let edit = done.last, change(edit.item, by: edit.adds ? -edit.count : edit.count) {
                    undone.append(done.removeLast())
                }
            case .redo:
                if let edit = undone.last, change(edit.item, by: edit.adds ? edit.count : -edit.count) {
                    done.append(undone.removeLast())
                }
            case .undoAt(let raw):
                let index = raw % 8
                if done.indices.contains(index),
                    change(done[index].item, by: done[index].adds ? -done[index].count : done[index].count)
                {
                    undone.append(done.remove(at: index))
                }
            case .markClean:
                saved = cart
            }
        }
    }
}
