import BehaviorKitSync

/// A job on a queue, by its key: ``result()`` waits until it settled, and answers its record
/// when it is done, or throws why not (``JobError``). Get one from
/// ``CommandQueue/job(forKey:pollInterval:clock:)``, in the process that enqueued the job or
/// in any other.
///
/// ```swift
/// try await payments.enqueue(Charge(order: 42, cents: 990), key: "order-42/charge")
/// let receipt = try await payments.job(forKey: "order-42/charge").result(as: Receipt.self)
/// ```
///
/// The wait is woken when the job settles: at once when it settles through the same journal
/// object (this process's worker), and, for another process's worker, as its journal sees it
/// (``JobSettlementSource``). Every `pollInterval` of its clock it reads the record all the
/// same, as a safety net.
public struct JobHandle: Sendable {
    /// The job's key.
    public let key: String
    /// Where the job is kept.
    public let journal: any CommandJournal
    /// How long the wait lasts, at most, between two reads of the record.
    public let pollInterval: Duration
    let clock: ElapsedClock

    /// The job `key` on `journal`, read every `pollInterval` of `clock` at most, as a safety
    /// net; prefer ``CommandQueue/job(forKey:pollInterval:clock:)``.
    public init(
        key: String, journal: any CommandJournal, pollInterval: Duration = .seconds(1),
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.key = key
        self.journal = journal
        self.pollInterval = max(pollInterval, .milliseconds(1))
        self.clock = ElapsedClock(clock)
    }

    /// Waits until the job settled; answers its record when it is done (its output is
    /// ``CommandJournalRecord/output``).
    ///
    /// - Throws: ``JobError/failed(key:reason:)`` when it failed for good,
    ///   ``JobError/cancelled(key:reason:)`` when an operator cancelled it,
    ///   ``JobError/compensated(key:reason:)`` when its transaction was undone,
    ///   ``JobError/unknownKey(_:)`` when no record has the key; `CancellationError` when the
    ///   waiting task is cancelled; the journal's error when a read fails.
    public func result() async throws -> CommandJournalRecord {
        let signal = WakeSignal()
        let listener = (journal as? any JobSettlementSource).map { source in
            let settlements = source.settlements(of: key)
            return Task {
                for await _ in settlements { signal.signal() }
            }
        }
        defer { listener?.cancel() }
        while true {
            let seen = signal.generation
            guard let record = try await journal.record(forKey: key) else { throw JobError.unknownKey(key) }
            if record.status == .done { return record }
            if let error = JobError.settled(record) { throw try await cancellation(of: error) ?? error }
            try Task.checkCancellation()
            await signal.wait(after: seen, upTo: pollInterval, on: clock)
        }
    }

    /// Waits until the job settled; answers its output, decoded as `type` (a step's output, as
    /// the journal keeps it: JSON).
    ///
    /// - Throws: as ``result()``; ``JobError/undecodable(key:reason:)`` when the job is done but
    ///   its output does not decode as `type` (or it kept none).
    public func result<Output: Decodable>(as type: Output.Type) async throws -> Output {
        let record = try await result()
        guard let output = record.output else {
            throw JobError.undecodable(key: key, reason: "it kept no output")
        }
        do {
            return try StepOutput.decode(type, from: output, key: key)
        } catch {
            throw JobError.undecodable(key: key, reason: "\(error)")
        }
    }

    /// `error` as a cancellation when an operator cancelled the job while it ran: a transaction
    /// so taken from its worker is compensated, and its cancellation is kept in a mark
    /// (``CommandJournalCancellation``) beside its steps.
    private func cancellation(of error: JobError) async throws -> JobError? {
        switch error {
        case .failed, .compensated:
            guard let mark = try await journal.record(forKey: CommandJournalCancellation.key(of: key)) else {
                return nil
            }
            return JobError.settled(mark).flatMap { marked in
                guard case .cancelled(_, let reason) = marked else { return nil }
                return .cancelled(key: key, reason: reason)
            }
        default:
            return nil
        }
    }

    /// How far the job got: pending, done, failed or compensated; `nil` when no record has the key.
    public func status() async throws -> CommandJournalStatus? {
        try await journal.record(forKey: key)?.status
    }
}
