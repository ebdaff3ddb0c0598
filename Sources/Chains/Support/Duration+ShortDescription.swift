extension Duration {
    /// The duration in the largest unit that keeps it at 1 or more, rounded: `30 s`, `250 ms`,
    /// `12 µs`, `85 ns`.
    var shortDescription: String {
        let nanoseconds = Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
        let magnitude = abs(nanoseconds)
        func rounded(_ value: Double) -> String {
            value >= 100 || value == value.rounded() ? "\(Int(value.rounded()))" : "\((value * 10).rounded() / 10)"
        }
        switch magnitude {
        case 1e9...: return "\(rounded(nanoseconds / 1e9)) s"
        case 1e6...: return "\(rounded(nanoseconds / 1e6)) ms"
        case 1e3...: return "\(rounded(nanoseconds / 1e3)) µs"
        default: return "\(rounded(nanoseconds)) ns"
        }
    }
}
