import Commands
import DurableMachines
import Foundation

/// An active state as the instance row lists them (in document order), in the row's `states`
/// column as JSON: `[{"state":"paid","at":1764504000000}]`.
///
/// A step reads and writes that column in its write transaction, so the usual shape is coded
/// by hand, its keys always in that order (`JSONEncoder` without `sortedKeys` orders them
/// differently from one call to the next, so that the bytes of unchanged states differed); a
/// name that JSON escapes, or a column in another shape (as `JSONEncoder` wrote it before),
/// goes through `JSONEncoder` and `JSONDecoder`.
struct StoredState: Codable, Equatable {
    var state: String
    var at: Int64

    init(_ entry: MachineStateEntry) {
        state = entry.state
        at = entry.enteredAt.journalMilliseconds
    }

    init(state: String, at: Int64) {
        self.state = state
        self.at = at
    }

    /// The column's JSON for `states`: what `JSONEncoder()` (default options) writes, the keys
    /// of each state in one order.
    static func json(_ states: [StoredState]) throws -> Data {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(2 + states.count * 48)
        for (position, stored) in states.enumerated() {
            guard stored.state.utf8.allSatisfy(isPlain) else { return try JSONEncoder().encode(states) }
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: #"{"state":""#.utf8)
            bytes.append(contentsOf: stored.state.utf8)
            bytes.append(contentsOf: #"","at":"#.utf8)
            bytes.append(contentsOf: String(stored.at).utf8)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
        return Data(bytes)
    }

    /// The states a column's JSON lists, read as `JSONDecoder` reads them.
    static func states(fromJSON json: Data) throws -> [StoredState] {
        if let states = json.withUnsafeBytes({ PlainStates.parse($0) }) { return states }
        return try JSONDecoder().decode([StoredState].self, from: json)
    }

    /// Whether JSON writes `byte` of a name as it is: printable ASCII but for `"`, `\` and `/`
    /// (which `JSONEncoder` escapes); any other byte leaves the name to `JSONEncoder`.
    fileprivate static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
            && byte != UInt8(ascii: "/")
    }
}

/// Reads the column in exactly the shape ``StoredState/json(_:)`` writes, or gives up (`nil`).
private struct PlainStates {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    static func parse(_ bytes: UnsafeRawBufferPointer) -> [StoredState]? {
        var reader = PlainStates(bytes)
        return reader.states()
    }

    private mutating func states() -> [StoredState]? {
        guard take("[") else { return nil }
        var states: [StoredState] = []
        if take("]") { return position == bytes.count ? states : nil }
        repeat {
            guard take(#"{"state":""#), let state = name(), take(#","at":"#), let at = integer(), take("}")
            else { return nil }
            states.append(StoredState(state: state, at: at))
        } while take(",")
        guard take("]"), position == bytes.count else { return nil }
        return states
    }

    /// Takes `literal` when the bytes go on with it.
    private mutating func take(_ literal: StaticString) -> Bool {
        let matched = literal.withUTF8Buffer { expected -> Int? in
            guard bytes.count - position >= expected.count,
                expected.indices.allSatisfy({ bytes[position + $0] == expected[$0] })
            else { return nil }
            return expected.count
        }
        guard let matched else { return false }
        position += matched
        return true
    }

    /// A name up to its closing quote, none of its bytes escaped.
    private mutating func name() -> String? {
        let start = position
        while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
            guard StoredState.isPlain(bytes[position]) else { return nil }
            position += 1
        }
        guard position < bytes.count else { return nil }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        position += 1
        return name
    }

    /// A whole number in Int64, as JSON writes it.
    private mutating func integer() -> Int64? {
        let negative = take("-")
        var value: Int64 = 0
        let start = position
        while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
            let digit = Int64(bytes[position] - UInt8(ascii: "0"))
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) =
                negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflowTimes, !overflowSum else { return nil }
            value = sum
            position += 1
        }
        let digits = position - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        return value
    }
}
