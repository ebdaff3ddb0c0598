import Foundation
import Logging
import PostgresNIO
import Testing

@testable import BehaviorKitPostgres

/// The binary array encoding with NULL elements that the batch function's arguments use.
struct PostgresNullableArrayBytesTests {
    func bytes<Element>(_ array: PostgresNullableArray<Element>) throws -> [UInt8] {
        var buffer = ByteBuffer()
        try array.encode(into: &buffer, context: .default)
        return Array(buffer.readableBytesView)
    }

    @Test func aNullIsALengthOfMinusOneAndSetsTheFlag() throws {
        let header: [UInt8] = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 20, 0, 0, 0, 2, 0, 0, 0, 1]
        let one: [UInt8] = [0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 1]
        #expect(try bytes(PostgresNullableArray<Int64>([1, nil])) == header + one + [255, 255, 255, 255])
    }

    @Test func withoutNullsTheFlagIsClear() throws {
        let encoded = try bytes(PostgresNullableArray<String>(["é", ""]))
        let expected: [UInt8] =
            [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 25, 0, 0, 0, 2, 0, 0, 0, 1] + [0, 0, 0, 2, 0xC3, 0xA9] + [0, 0, 0, 0]
        #expect(encoded == expected)
    }

    @Test func anEmptyArrayHasNoDimension() throws {
        #expect(try bytes(PostgresNullableArray<ByteBuffer>()) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 17])
        #expect(PostgresNullableArray<ByteBuffer>.psqlType == .byteaArray)
        #expect(PostgresNullableArray<Int16>.psqlType == .int2Array)
        #expect(PostgresNullableArray<Int16>.psqlFormat == .binary)
    }
}

@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresNullableArrayServerTests {
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// The elements of `array` as the server reads it back (`unnest`, in order), with its
    /// cardinality and its number of dimensions.
    func roundTrip<Element, Decoded: PostgresDecodable & Sendable>(
        _ array: PostgresNullableArray<Element>, as type: String, decoding: Decoded.Type
    ) async throws -> (elements: [Decoded?], cardinality: Int32, dimensions: Int32?)
    where Decoded._DecodableType == Decoded {
        let journals = try await OpenJournals("arrays")
        let journal = try await journals.open()
        let logger = self.logger
        let back = try await journal.connections.withConnection { connection in
            var bindings = PostgresBindings(capacity: 1)
            try bindings.append(array)
            let elements = try await connection.query(
                PostgresQuery(
                    unsafeSQL: "SELECT u.x FROM unnest($1::\(type)) WITH ORDINALITY AS u(x, n) ORDER BY u.n",
                    binds: bindings), logger: logger
            ).collect().map { try $0.decode(Decoded?.self) }
            let shape = try #require(
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: "SELECT cardinality($1::\(type)), array_ndims($1::\(type))", binds: bindings),
                    logger: logger
                ).collect().first)
            let (cardinality, dimensions) = try shape.decode((Int32, Int32?).self)
            return (elements, cardinality, dimensions)
        }
        await journals.closeAll()
        return back
    }

    @Test func bigintsWithNullsComeBackInOrder() async throws {
        let values: [Int64?] = [1, nil, .min, .max, nil]
        let back = try await roundTrip(PostgresNullableArray(values), as: "bigint[]", decoding: Int64.self)
        #expect(back.elements == values)
        #expect(back.cardinality == 5 && back.dimensions == 1)
    }

    @Test func anEmptyArrayIsEmpty() async throws {
        let back = try await roundTrip(PostgresNullableArray<Int64>([]), as: "bigint[]", decoding: Int64.self)
        #expect(back.elements.isEmpty && back.cardinality == 0 && back.dimensions == nil)
    }

    @Test func unicodeTextAndEmptyTextAreKept() async throws {
        let values: [String?] = ["é👍🏽", nil, "", "a\"b,{c} NULL", "日本"]
        let back = try await roundTrip(PostgresNullableArray(values), as: "text[]", decoding: String.self)
        #expect(back.elements == values)
    }

    @Test func emptyByteaIsNotNull() async throws {
        let values: [[UInt8]?] = [[], nil, [0, 255, 0]]
        let back = try await roundTrip(
            PostgresNullableArray(values.map { $0.map { ByteBuffer(bytes: $0) } }), as: "bytea[]",
            decoding: ByteBuffer.self)
        #expect(back.elements.map { $0.map { Array($0.readableBytesView) } } == values)
    }

    @Test func smallintsAndBooleans() async throws {
        let codes: [Int16?] = [0, nil, .max, -1]
        #expect(
            try await roundTrip(PostgresNullableArray(codes), as: "smallint[]", decoding: Int16.self).elements == codes)
        let flags: [Bool?] = [true, nil, false]
        #expect(
            try await roundTrip(PostgresNullableArray(flags), as: "boolean[]", decoding: Bool.self).elements == flags)
    }
}
