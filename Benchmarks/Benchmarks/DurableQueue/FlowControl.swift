import Commands
import Foundation

/// The flow control a run of `DurableQueue` works under, named by the environment variable
/// `BK_FLOW` (`plain` when unset): what each feature costs a drain, measured against `plain` in
/// the same run by `Scripts/queue-flow-costs.sh`. Each limit is set so that it never holds a job
/// back (a million starts a second, more slots than the workers have): what is measured is the
/// price of checking it, as River's users measured theirs (River #1145: a global limit halved
/// their throughput).
enum FlowControl: String, CaseIterable, Sendable {
    /// No priority, no partition, no limit: the baseline.
    case plain
    /// Ten priorities, `index % 10`: claims take the highest first.
    case priorities
    /// 64 partitions (`customer-<index % 64>`), at most 2 of one running across the fleet.
    case partitions
    /// The queue's own limit: at most 1,000 running across the fleet.
    case concurrency
    /// A queue-wide rate limit of a million starts a second (a bucket every claim debits).
    case rateLimit = "rate-limit"
    /// 64 partitions, each with a rate limit of a million starts a second.
    case partitionRateLimit = "partition-rate-limit"

    /// The flow control `BK_FLOW` names, or a usage error.
    static func fromEnvironment() -> FlowControl {
        guard let name = ProcessInfo.processInfo.environment["BK_FLOW"] else { return .plain }
        guard let flow = FlowControl(rawValue: name) else {
            fail("BK_FLOW: one of \(allCases.map(\.rawValue).joined(separator: ", ")), not \(name)")
        }
        return flow
    }

    /// The benchmark's queue on `journal`, with this flow's concurrency limits.
    func queue(on journal: any CommandJournal) -> CommandQueue {
        switch self {
        case .partitions: CommandQueue("bench", journal: journal, concurrencyPerPartition: 2)
        case .concurrency: CommandQueue("bench", journal: journal, concurrency: 1_000)
        default: CommandQueue("bench", journal: journal)
        }
    }

    /// The priority of the `index`-th job.
    func priority(of index: Int) -> Int {
        self == .priorities ? index % 10 : CommandQueue.defaultPriority
    }

    /// The partition of the `index`-th job, or `nil`.
    func partition(of index: Int) -> String? {
        self == .partitions || self == .partitionRateLimit ? "customer-\(index % 64)" : nil
    }

    /// Sets the flow's rate limit on `queue` (before the jobs are enqueued: every process of a
    /// drain reads it from the journal).
    func prepare(_ queue: CommandQueue) async throws {
        let generous = try QueueRateLimit(starts: 1_000_000, per: .seconds(1), burst: 1_000_000)
        switch self {
        case .rateLimit: try await queue.setRateLimit(generous)
        case .partitionRateLimit: try await queue.setRateLimit(generous, for: .partition)
        default: break
        }
    }
}
