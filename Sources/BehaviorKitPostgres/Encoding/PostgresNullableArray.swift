import PostgresNIO

/// A one-dimensional PostgreSQL array whose elements may be NULL, in the server's binary array
/// format: postgres-nio encodes `[Element]`, not `[Element?]`.
///
/// The format (`array_recv`): the number of dimensions (0 for an empty array, else 1), a flag
/// set when some element is NULL, the elements' type OID; for the dimension its size and lower
/// bound (1); then each element as a length (-1 for NULL) and its binary bytes.
///
/// ```swift
/// var bindings = PostgresBindings()
/// try bindings.append(PostgresNullableArray<Int64>([1, nil, 3]))  // SELECT $1::bigint[]
/// ```
struct PostgresNullableArray<Element: PostgresArrayEncodable & Sendable>: PostgresEncodable, Sendable {
    /// The elements, `nil` for NULL.
    var elements: [Element?]

    init(_ elements: [Element?] = []) {
        self.elements = elements
    }

    /// What cannot be encoded: a count or a length beyond the format's 32 bits.
    struct EncodingError: Error, CustomStringConvertible {
        var description: String
    }

    static var psqlType: PostgresDataType { Element.psqlArrayType }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) throws {
        guard Element.psqlFormat == .binary else {
            throw EncodingError(description: "\(Element.self) has no binary encoding for an array")
        }
        guard let count = Int32(exactly: elements.count) else {
            throw EncodingError(description: "an array of \(elements.count) elements is beyond PostgreSQL's")
        }
        buffer.writeInteger(elements.isEmpty ? 0 : 1, as: Int32.self)
        buffer.writeInteger(elements.contains { $0 == nil } ? 1 : 0, as: Int32.self)
        buffer.writeInteger(Element.psqlType.rawValue)
        guard count > 0 else { return }
        buffer.writeInteger(count)
        buffer.writeInteger(1, as: Int32.self)  // the lower bound
        for element in elements {
            guard let element else {
                buffer.writeInteger(-1, as: Int32.self)
                continue
            }
            let lengthIndex = buffer.writerIndex
            buffer.writeInteger(0, as: Int32.self)
            let start = buffer.writerIndex
            try element.encode(into: &buffer, context: context)
            guard let length = Int32(exactly: buffer.writerIndex - start) else {
                throw EncodingError(
                    description: "an element of \(buffer.writerIndex - start) bytes is beyond PostgreSQL's")
            }
            buffer.setInteger(length, at: lengthIndex)
        }
    }
}
