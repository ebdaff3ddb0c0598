/// What ``JournaledInvoker/recover(takingOverFrom:policy:)`` did with the records a crash left unfinished.
///
/// ```swift
/// let report = try await invoker.recover()
/// print(report)  // recovery: 2 replayed, 1 compensated, 0 completed, 0 failed, 0 left pending, 0 unreadable
/// report.unreadable.first?.description  // record 'k9': the command type 'old.kind' is not registered; …
/// ```
public struct CommandRecoveryReport: Sendable, Hashable, CustomStringConvertible {
    /// Keys of the commands executed again and marked done.
    public var replayed: [String] = []
    /// Keys of the transactions compensated in reverse.
    public var compensatedTransactions: [String] = []
    /// Keys of the transactions completed by forward recovery.
    public var completedTransactions: [String] = []
    /// Keys of the commands and transactions marked failed (a replay that threw, the policy's
    /// choice, or a compensation that failed).
    public var failed: [String] = []
    /// Keys the policy left pending.
    public var leftPending: [String] = []
    /// Records that could not be turned into commands (an unregistered type, a bad payload):
    /// kept pending in the journal, named here.
    public var unreadable: [CommandRegistryError] = []

    /// An empty report.
    public init() {}

    /// Whether there was nothing to settle.
    public var isEmpty: Bool { self == CommandRecoveryReport() }

    /// "recovery: 2 replayed, 1 compensated, …", then one line per unreadable record.
    public var description: String {
        let counts = [
            "\(replayed.count) replayed", "\(compensatedTransactions.count) compensated",
            "\(completedTransactions.count) completed", "\(failed.count) failed",
            "\(leftPending.count) left pending", "\(unreadable.count) unreadable",
        ]
        return (["recovery: " + counts.joined(separator: ", ")] + unreadable.map { "  \($0)" })
            .joined(separator: "\n")
    }
}

/// Encoded under the properties' names, each unreadable record as a ``CommandRegistryError``, so
/// that a service can answer what its recovery did as JSON; decoded from that form.
///
/// ```swift
/// try JSONEncoder().encode(try await invoker.recover())
/// // {"replayed":["order-41"],"compensatedTransactions":["order-42"],…,"unreadable":[]}
/// ```
extension CommandRecoveryReport: Codable {}
