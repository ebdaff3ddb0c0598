import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value kept in a JSON file: the books of a simulated partner (stock, payments, parcels),
/// which outlive the order service's processes and serve all of them, as a real partner's would.
///
/// Every read and change holds an exclusive lock on `<file>.lock` (`flock`, released when its
/// descriptor closes, so a killed process holds none) and reads the file; a change writes it
/// back, atomically, before the lock is released. Processes sharing the file never lose each
/// other's changes.
final class JSONFile<Value: Codable & Sendable>: Sendable {
    let url: URL

    /// Opens `url`, and writes `initial` there when there is no such file.
    init(_ url: URL, initial: @autoclosure () -> Value) throws {
        self.url = url
        try locked {
            if !FileManager.default.fileExists(atPath: url.path) { try write(initial()) }
        }
    }

    func read<Result>(_ body: (Value) throws -> Result) throws -> Result {
        try locked { try body(try load()) }
    }

    /// Changes the value and writes it down before returning; when `body` throws, nothing
    /// changes.
    func update<Result>(_ body: (inout Value) throws -> Result) throws -> Result {
        try locked {
            var value = try load()
            let result = try body(&value)
            try write(value)
            return result
        }
    }

    private func locked<Result>(_ body: () throws -> Result) throws -> Result {
        let path = url.path + ".lock"
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw PartnerError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else {
            throw PartnerError("cannot lock \(path): \(String(cString: strerror(errno)))")
        }
        return try body()
    }

    private func load() throws -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(contentsOf: url))
        } catch {
            throw PartnerError("cannot read \(url.path): \(error)")
        }
    }

    private func write(_ value: Value) throws {
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
