/// Reading one field of a cron expression into the set of its values, a bit per value.
extension CronExpression {
    static func parse(_ text: String, as field: CronField) throws(CronExpressionError) -> UInt64 {
        var values: UInt64 = 0
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            values |= try parsePart(String(part), of: text, as: field)
        }
        return values
    }

    private static func parsePart(
        _ part: String, of text: String, as field: CronField
    )
        throws(CronExpressionError) -> UInt64
    {
        func invalid(_ reason: String) -> CronExpressionError { .invalidField(field, text: text, reason: reason) }
        guard !part.isEmpty else { throw invalid("an empty list element") }
        let pieces = part.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard pieces.count <= 2 else { throw invalid("more than one step in \"\(part)\"") }
        var step = 1
        if pieces.count == 2 {
            guard let number = Int(pieces[1]), number >= 1, number <= field.highest else {
                throw invalid("the step \"\(pieces[1])\" is not a number from 1 to \(field.highest)")
            }
            step = number
        }
        let range = pieces[0]
        let lower: Int
        let upper: Int
        if range == "*" {
            (lower, upper) = (field.lowest, field.highest)
        } else if let dash = range.firstIndex(of: "-") {
            lower = try value(String(range[..<dash]), as: field, in: text)
            upper = try value(String(range[range.index(after: dash)...]), as: field, in: text)
            guard lower <= upper else { throw invalid("the range \"\(range)\" ends before it starts") }
        } else {
            lower = try value(range, as: field, in: text)
            upper = pieces.count == 2 ? field.highest : lower
        }
        var values: UInt64 = 0
        for number in stride(from: lower, through: upper, by: step) { values |= 1 << UInt64(number) }
        return values
    }

    private static func value(
        _ text: String, as field: CronField, in fieldText: String
    )
        throws(CronExpressionError) -> Int
    {
        if let index = field.names.firstIndex(of: text.uppercased()) { return field.lowest + index }
        guard let number = Int(text), number >= field.lowest, number <= field.highest else {
            let names = field.names.isEmpty ? "" : " or a name (\(field.names.joined(separator: ", ")))"
            throw .invalidField(
                field, text: fieldText,
                reason: "\"\(text)\" is not a number from \(field.lowest) to \(field.highest)\(names)")
        }
        return number
    }
}
