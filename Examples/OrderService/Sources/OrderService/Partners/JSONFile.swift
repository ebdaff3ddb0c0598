import Foundation
import Synchronization

/// A value kept in a JSON file and replaced atomically on every change: the state of the
/// simulated partners (stock, payments, parcels), which outlives the order service's process
/// as a real partner's would.
final class JSONFile<Value: Codable & Sendable>: Sendable {
    let url: URL
    private let value: Mutex<Value>

    /// Reads `url`, or starts from `initial` when there is no such file.
    init(_ url: URL, initial: @autoclosure () -> Value) throws {
        self.url = url
        if FileManager.default.fileExists(atPath: url.path) {
            do {
                value = Mutex(try JSONDecoder().decode(Value.self, from: Data(contentsOf: url)))
            } catch {
                throw PartnerError("cannot read \(url.path): \(error)")
            }
        } else {
            let start = initial()
            value = Mutex(start)
            try Self.write(start, to: url)
        }
    }

    func read<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        try value.withLock { try body($0) }
    }

    /// Changes the value and writes it down before returning; when `body` throws, nothing
    /// changes.
    func update<Result: Sendable>(_ body: (inout Value) throws -> Result) throws -> Result {
        try value.withLock { current in
            var changed = current
            let result = try body(&changed)
            try Self.write(changed, to: url)
            current = changed
            return result
        }
    }

    private static func write(_ value: Value, to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(value).write(to: url, options: .atomic)
    }
}

/// A partner's refusal, or a partner's file that cannot be read.
struct PartnerError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
