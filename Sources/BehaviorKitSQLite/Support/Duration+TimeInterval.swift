extension Duration {
    /// The duration in seconds, as GRDB's and Foundation's APIs take it.
    var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
