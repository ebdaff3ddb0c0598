extension Character {
    /// The value of a decimal digit of any script (Unicode category Nd: `7`, `７`, `٧`, `७`),
    /// or `nil` for any other character.
    var decimalDigitValue: Int? {
        if let ascii = asciiValue { return ascii >= 0x30 && ascii <= 0x39 ? Int(ascii - 0x30) : nil }
        guard unicodeScalars.count == 1, let scalar = unicodeScalars.first,
            scalar.properties.generalCategory == .decimalNumber, let value = scalar.properties.numericValue
        else { return nil }
        return Int(value)
    }
}
