import Tracing

extension DurableTransaction {
    /// Runs `body` in the transaction's span (with `attributes`) and reports how it ended: as
    /// `outcome` reads what it answered, timed when `outcome` says so, or as what it threw, timed.
    func reporting<Answer>(
        _ attributes: SpanAttributes, _ body: () async throws -> Answer,
        outcome: (Answer) -> (outcome: DurableOutcome, timed: Bool)
    ) async throws -> Answer {
        let instruments = invoker.instruments
        return try await instruments.withSpan("behaviorkit.transaction", attributes) { span in
            let started = invoker.keeper.now
            do {
                let answer = try await body()
                let (ended, timed) = outcome(answer)
                instruments.transactionEnded(
                    name, key: key, ended, duration: timed ? invoker.keeper.now - started : nil, span: span)
                return answer
            } catch {
                instruments.transactionEnded(
                    name, key: key, DurableOutcome(error), error: error, duration: invoker.keeper.now - started,
                    span: span)
                throw error
            }
        }
    }
}
