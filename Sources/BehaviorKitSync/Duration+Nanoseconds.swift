extension Duration {
    /// The duration in whole nanoseconds (a fraction of a nanosecond dropped), saturating at
    /// `Int64`'s bounds (292 years either way), as the `Codable` forms of every module write it.
    package var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (total, carry) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !carry else { return attoseconds < 0 ? .min : .max }
        return total
    }
}
