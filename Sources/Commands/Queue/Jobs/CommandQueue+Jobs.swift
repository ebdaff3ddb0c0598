extension CommandQueue {
    /// The job `key` (one enqueued here, by this process or another), to wait for its result.
    ///
    /// ```swift
    /// try await payments.enqueue(Charge(order: 42, cents: 990), key: "order-42/charge")
    /// let record = try await payments.job(forKey: "order-42/charge").result()
    /// ```
    ///
    /// - Parameters:
    ///   - key: the job's key, as enqueued.
    ///   - pollInterval: how long the wait lasts, at most, between two reads of the record: a
    ///     safety net, since the journal wakes it when the job settles (``JobSettlementSource``).
    ///   - clock: the clock of the poll.
    public func job(
        forKey key: String, pollInterval: Duration = .seconds(1), clock: some Clock<Duration> = ContinuousClock()
    ) -> JobHandle {
        JobHandle(key: key, journal: journal, pollInterval: pollInterval, clock: clock)
    }
}
