import BehaviorKitSync
public import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A worker on a ``CommandJournal``: runs commands and ``DurableTransaction``s through it,
/// settles what stopped workers left unfinished, and holds every record it works on under a
/// lease that a heartbeat renews while it lives.
///
/// ```swift
/// let invoker = JournaledInvoker(journal: try SQLiteCommandJournal(path: "orders.sqlite"), registry: registry)
/// print(try await invoker.recover())                    // settles what stopped workers left
/// try await invoker.perform(Charge(order: 42, cents: 990), key: "order-42/charge")
/// try await invoker.transaction("order", key: "order-43", steps: steps).run()
/// ```
///
/// Any number of invokers, in one process or many, can share a journal: a record is run by one
/// of them at a time, a live invoker's work is never touched, and work whose invoker stopped is
/// taken over by another once its lease expires. Give each invoker its own ``owner`` (the
/// default is unique).
///
/// Give it a `logger` and it logs what it settles; with a swift-metrics backend or a tracer
/// bootstrapped before it is made, it counts and traces its work too (<doc:Observability>).
public final class JournaledInvoker: Sendable {
    /// Where commands are written down.
    public let journal: any CommandJournal
    /// The command types recovery and queue workers can bring back.
    public let registry: CommandRegistry
    /// This worker's identity and lease length.
    public let lease: JournalLease
    /// How the durable transactions it runs or recovers undo their steps, unless one names its
    /// own: retries, backoff and deadline, as for a ``Transaction``.
    public let compensation: CompensationPolicy
    /// Where the worker, its transactions, recoveries and queue workers log; `nil`: nowhere.
    public var logger: Logger? { instruments.logger }
    let keeper: LeaseKeeper
    let instruments: DurableInstruments

    /// Creates a worker on `journal` that decodes records with `registry`.
    ///
    /// - Parameters:
    ///   - journal: where the worker writes its commands down and claims unfinished ones.
    ///   - registry: the command types recovery and queue workers can bring back from records.
    ///   - owner: the worker's identity, unique among the live workers of the journal.
    ///   - leaseDuration: how long the worker's claims last without a renewal: how long its
    ///     work waits, after it stops, before another worker takes it over. Renewed every third.
    ///   - clock: the clock the heartbeat sleeps on (a `ManualClock` in tests).
    ///   - logger: where to log what the worker settles and what goes wrong (lost leases, journal
    ///     errors, failed compensations); `nil` to log nothing.
    ///   - compensation: how its durable transactions, and those it recovers, retry a failing
    ///     compensation and how long a rollback may take (``compensation``).
    public init<C: Clock<Duration>>(
        journal: any CommandJournal, registry: CommandRegistry = CommandRegistry(),
        owner: String = JournaledInvoker.uniqueOwner(), leaseDuration: Duration = .seconds(30), clock: C,
        logger: Logger? = nil, compensation: CompensationPolicy = .default
    ) {
        self.journal = journal
        self.compensation = compensation
        self.registry = registry
        self.lease = JournalLease(owner: owner, duration: max(leaseDuration, .milliseconds(3)))
        let logger = logger.map { logger in
            var logger = logger
            logger[metadataKey: "owner"] = "\(owner)"
            return logger
        }
        self.instruments = DurableInstruments(logger: logger)
        self.keeper = LeaseKeeper(journal: journal, lease: lease, clock: ElapsedClock(clock), instruments: instruments)
    }

    /// Creates a worker on `journal` whose heartbeat runs on the continuous clock.
    public convenience init(
        journal: any CommandJournal, registry: CommandRegistry = CommandRegistry(),
        owner: String = JournaledInvoker.uniqueOwner(), leaseDuration: Duration = .seconds(30), logger: Logger? = nil,
        compensation: CompensationPolicy = .default
    ) {
        self.init(
            journal: journal, registry: registry, owner: owner, leaseDuration: leaseDuration, clock: ContinuousClock(),
            logger: logger, compensation: compensation)
    }

    /// This worker's identity.
    public var owner: String { lease.owner }

    /// This worker's lease for the attempt whose fencing token is `token`.
    func lease(_ token: Int) -> JournalLease {
        JournalLease(owner: lease.owner, duration: lease.duration, token: token)
    }

    /// A worker identity unique to this process and call: `"<prefix>-<pid>-<random>"`.
    public static func uniqueOwner(prefix: String = "worker") -> String {
        let random = UInt32.random(in: 0...UInt32.max)
        let suffix = String(random, radix: 16)
        return
            "\(prefix)-\(ProcessInfo.processInfo.processIdentifier)-\(String(repeating: "0", count: 8 - suffix.count))\(suffix)"
    }

    /// Returns once this worker holds no record: every command and transaction it runs (or
    /// recovers) has settled, been released, or been lost. For a graceful shutdown.
    public func idle() async {
        await keeper.idle()
    }

    /// Sleeps for `duration` on the worker's clock (for services that recover on a schedule).
    package func sleep(for duration: Duration) async throws {
        try await keeper.clock.sleep(for: duration)
    }

    /// A durable transaction of `steps` run by this worker.
    public func transaction(
        _ name: String, key: String, recovery: DurableTransactionRecovery = .compensate, steps: [DurableStep],
        compensation: CompensationPolicy? = nil, observer: (@Sendable (TransactionEvent) -> Void)? = nil
    ) -> DurableTransaction {
        DurableTransaction(
            name, key: key, recovery: recovery, invoker: self, steps: steps, compensation: compensation,
            observer: observer)
    }
}
