#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How outputs are kept in a journal: JSON with sorted keys.
enum StepOutput {
    static func encode(_ value: some Encodable, key: String) throws(DurableStepError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            return Array(try encoder.encode(value))
        } catch {
            throw .unencodableOutput(key: key, reason: "\(error)")
        }
    }

    /// `bytes` decoded, or `nil` when there are none (a step whose output was never written).
    static func decodeIfPresent<T: Decodable>(
        _ type: T.Type, from bytes: [UInt8]?, key: String
    ) throws(DurableStepError) -> T? {
        guard let bytes else { return nil }
        return try decode(type, from: bytes, key: key)
    }

    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], key: String) throws(DurableStepError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch {
            throw .undecodableOutput(key: key, reason: "\(error)")
        }
    }
}
