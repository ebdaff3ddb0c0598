/// How a durable transaction a step started ended, as its instance hears of it: the machine's
/// `report` turns it into an event, delivered once, whichever worker ran the transaction (a
/// takeover after a crash included).
///
/// ```swift
/// let report = { (report: TransactionReport) -> OrderEvent? in
///     report.outcome == .done ? .shipped : .shippingFailed(report.reason ?? "unknown")
/// }
/// DurableMachine("order", definition: lifecycle, store: store, report: report, journal: journal) { step, order in
///     step.configuration == [.paid] ? [MachineCommand(shipping(order), on: "checkouts")] : []
/// }
/// ```
public struct TransactionReport: Hashable, Sendable {
    /// How it ended.
    public enum Outcome: String, Hashable, Sendable, Codable {
        /// Every step ran.
        case done
        /// A step failed and the steps before it were compensated.
        case compensated
        /// It failed and could not be compensated (or had nothing to compensate).
        case failed
    }

    /// The transaction's key in the journal.
    public var key: String
    /// How it ended.
    public var outcome: Outcome
    /// The error that caused the compensation or the failure, as the journal recorded it (the
    /// transaction's own reason, or else its failed step's); `nil` when it is done.
    public var reason: String?

    /// Creates a report.
    public init(key: String, outcome: Outcome, reason: String?) {
        self.key = key
        self.outcome = outcome
        self.reason = reason
    }
}
