/// A cron expression is stored as written, and read again when decoded.
extension CronExpression: Codable {
    /// Reads the expression from a string.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the string is not a cron expression.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(error)")
        }
    }

    /// Writes the expression as written.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(expression)
    }
}
