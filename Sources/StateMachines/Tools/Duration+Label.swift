extension Duration {
    /// A short label for diagrams and messages: `5 s`, `250 ms`, `1.5 s`, `2 min`.
    var label: String {
        let (seconds, attoseconds) = components
        let milliseconds = attoseconds / 1_000_000_000_000_000
        if attoseconds == 0 {
            if seconds != 0 && seconds % 3600 == 0 { return "\(seconds / 3600) h" }
            if seconds != 0 && seconds % 60 == 0 { return "\(seconds / 60) min" }
            return "\(seconds) s"
        }
        if seconds == 0 && attoseconds % 1_000_000_000_000_000 == 0 { return "\(milliseconds) ms" }
        return "\(Double(seconds) + Double(attoseconds) / 1e18) s"
    }
}
