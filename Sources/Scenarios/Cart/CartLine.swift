/// One line of a cart session: an edit or a history operation.
public enum CartLine: Hashable, Sendable {
    /// `add apple 2`: adds goods.
    case add(item: String, count: Int)
    /// `reduce apple 1`: takes goods out.
    case reduce(item: String, count: Int)
    /// `undo`: undoes the last edit.
    case undo
    /// `undo all`: undoes every edit.
    case undoAll
    /// `undo at 1`: undoes only the edit at that index (0 is the oldest).
    case undoAt(Int)
    /// `redo`: redoes the edit undone last.
    case redo
    /// `history`: lists what can be undone and redone.
    case history

    /// What a session understands, for error messages.
    public static let usage = "add ITEM COUNT, reduce ITEM COUNT, undo, undo all, undo at INDEX, redo, history"

    /// Parses `add apple 2`, `reduce apple 1`, `undo`, `undo all`, `undo at 1`, `redo`, `history`.
    ///
    /// - Throws: ``CartLineError`` naming the line.
    public init(parsing text: String, lineNumber: Int) throws(CartLineError) {
        let words = text.split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
        switch words.first {
        case "add", "reduce":
            if words.count == 3, Int(words[2]) == nil, !words[2].isEmpty, words[2].allSatisfy(\.isASCIIDigit) {
                throw CartLineError(
                    lineNumber: lineNumber, line: text,
                    problem: "COUNT \(words[2]) is more than the most a cart holds, \(Int.max)")
            }
            guard words.count == 3, let count = Int(words[2]), count > 0 else {
                throw CartLineError(
                    lineNumber: lineNumber, line: text,
                    problem: "expected \(words[0]) ITEM COUNT, COUNT a whole number above 0")
            }
            self = words[0] == "add" ? .add(item: words[1], count: count) : .reduce(item: words[1], count: count)
        case "undo" where words.count == 1: self = .undo
        case "undo" where words == ["undo", "all"]: self = .undoAll
        case "undo" where words.count == 3 && words[1] == "at":
            guard let index = Int(words[2]) else {
                throw CartLineError(
                    lineNumber: lineNumber, line: text, problem: "expected undo at INDEX, INDEX a whole number")
            }
            self = .undoAt(index)
        case "redo" where words.count == 1: self = .redo
        case "history" where words.count == 1: self = .history
        default:
            throw CartLineError(lineNumber: lineNumber, line: text, problem: "expected \(Self.usage)")
        }
    }
}

/// A line a cart session could not read.
public struct CartLineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line's number, from 1.
    public let lineNumber: Int
    /// The line as given.
    public let line: String
    /// What was expected.
    public let problem: String

    /// "line 3: 'fly away': expected …".
    public var description: String { "line \(lineNumber): '\(line)': \(problem)" }
}

extension Character {
    /// "0" to "9" (not other scripts' digits, which `Int(_:)` refuses).
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
