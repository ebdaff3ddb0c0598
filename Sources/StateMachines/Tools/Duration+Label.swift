extension Duration {
    /// A short label for diagrams and messages: `5 s`, `250 ms`, `1.5 s`, `2 min`, `10 µs`,
    /// `1.5 µs`, `20 ns`: the largest unit in which the value is at least 1, with at most three
    /// decimals, never an exponent.
    var label: String {
        let (seconds, attoseconds) = components
        if attoseconds == 0 {
            if seconds != 0 && seconds % 3600 == 0 { return "\(seconds / 3600) h" }
            if seconds != 0 && seconds % 60 == 0 { return "\(seconds / 60) min" }
            return "\(seconds) s"
        }
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        let magnitude = Swift.abs(nanoseconds)
        if magnitude >= 1_000_000_000 { return Self.decimal(nanoseconds, per: 1_000_000_000, unit: "s") }
        if magnitude >= 1_000_000 { return Self.decimal(nanoseconds, per: 1_000_000, unit: "ms") }
        if magnitude >= 1_000 { return Self.decimal(nanoseconds, per: 1_000, unit: "µs") }
        return "\(nanoseconds) ns"
    }

    /// `value / per` with up to three decimals, trailing zeros dropped.
    private static func decimal(_ value: Int64, per: Int64, unit: String) -> String {
        let sign = value < 0 ? "-" : ""
        let magnitude = Swift.abs(value)
        let whole = magnitude / per
        let thousandths = (magnitude % per) * 1_000 / per
        guard thousandths != 0 else { return "\(sign)\(whole) \(unit)" }
        var fraction = String(thousandths)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(sign)\(whole).\(fraction) \(unit)"
    }
}

extension TimerDelay {
    /// `5 s`, or the name of a computed delay.
    var label: String {
        switch self {
        case .fixed(let delay): delay.label
        case .computed(let name, _): name
        }
    }
}
