/// The state names of a stored snapshot, read without the definition's `State` type, so that a
/// snapshot the definition cannot read can say which names it does not know.
struct StoredStateNames: Decodable {
    struct HistoryNames: Decodable {
        var history: AnyJSON
        var states: [AnyJSON]
    }

    var state: AnyJSON
    var configuration: [AnyJSON]?
    var history: [HistoryNames]?

    /// Every name, in the order the snapshot holds them.
    var all: [AnyJSON] {
        [state] + (configuration ?? []) + (history ?? []).flatMap { [$0.history] + $0.states }
    }
}

/// Any JSON value, to hand back to a decoder as it was read.
indirect enum AnyJSON: Codable, CustomStringConvertible {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AnyJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: AnyJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// A string as itself; anything else as compact JSON-like text.
    var description: String {
        switch self {
        case .string(let value): value
        case .number(let value): "\(value)"
        case .bool(let value): "\(value)"
        case .null: "null"
        case .array(let values): "[\(values.map(\.description).joined(separator: ","))]"
        case .object(let values):
            "{\(values.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value.description)" }.joined(separator: ","))}"
        }
    }
}
