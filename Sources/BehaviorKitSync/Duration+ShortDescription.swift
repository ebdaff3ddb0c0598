extension Duration {
    /// The duration in the largest unit that keeps it at 1 or more, rounded: `30 s`, `250 ms`,
    /// `12 µs`, `85 ns`. Shared by the statistics, logs and scenario output of every module.
    package var shortDescription: String {
        let nanoseconds = Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
        let magnitude = abs(nanoseconds)
        func rounded(_ value: Double) -> String {
            let tenths = (value * 10).rounded() / 10
            return value >= 100 || tenths == tenths.rounded() ? "\(Int(tenths.rounded()))" : "\(tenths)"
        }
        switch magnitude {
        case 1e9...: return "\(rounded(nanoseconds / 1e9)) s"
        case 1e6...: return "\(rounded(nanoseconds / 1e6)) ms"
        case 1e3...: return "\(rounded(nanoseconds / 1e3)) µs"
        default: return "\(rounded(nanoseconds)) ns"
        }
    }
}
