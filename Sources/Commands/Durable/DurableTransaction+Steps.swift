import BehaviorKitSync
import Logging
import Tracing

extension DurableTransaction {
    /// Runs step `index` with `context`: in a span `behaviorkit.step` when a tracer is there,
    /// logged at `trace` level (and its failure at `debug`).
    func runStep(_ index: Int, _ context: DurableContext) async throws -> [UInt8]? {
        let instruments = invoker.instruments
        guard instruments.isOn else { return try await runAttempts(index, context) }
        return try await instruments.withSpan("behaviorkit.step", stepAttributes(index)) { _ in
            do {
                let output = try await runAttempts(index, context)
                instruments.logger?.trace("step done", metadata: stepMetadata(index))
                return output
            } catch {
                var metadata = stepMetadata(index)
                metadata["error"] = "\(error)"
                instruments.logger?.debug("step failed; compensating the steps before it", metadata: metadata)
                throw error
            }
        }
    }

    /// Runs step `index` under its ``DurableStep/retryPolicy``: a failed attempt is tried again
    /// after the policy's backoff on the worker's clock, while the worker holds the transaction
    /// (checked before each attempt); the last attempt's error is thrown, the earlier ones logged
    /// and written down (``CommandJournal/logAttempt(_:of:parentKey:lease:)``).
    private func runAttempts(_ index: Int, _ context: DurableContext) async throws -> [UInt8]? {
        var attempt = 1
        while true {
            do {
                return try await DurableContext.$current.withValue(context) { try await steps[index].run(context) }
            } catch {
                guard !(error is CancellationError), !Task.isCancelled,
                    let delay = steps[index].retryPolicy.delay(after: attempt, of: context.key, failedWith: error)
                else { throw error }
                var metadata = stepMetadata(index)
                metadata["error"] = "\(error)"
                metadata["attempt"] = "\(attempt)"
                metadata["retry_after"] = "\(delay)"
                invoker.instruments.logger?.info("step attempt failed; trying it again", metadata: metadata)
                try await journal.logAttempt(
                    CommandJournalAttempt(number: attempt, owner: invoker.owner, error: JournaledInvoker.reason(error)),
                    of: context.key, parentKey: key, lease: invoker.lease(context.attempt))
                try await invoker.keeper.clock.sleep(for: delay)
                try await invoker.keeper.check(key, token: context.attempt)
                attempt += 1
            }
        }
    }

    /// Runs the compensation of step `index` with `context`: in a span
    /// `behaviorkit.compensation` when a tracer is there; a compensation that fails is logged
    /// as an error (its step's effects may remain).
    func compensateStep(
        _ index: Int, _ context: DurableContext, output: [UInt8]?,
        _ compensation: @escaping @Sendable (DurableContext, [UInt8]?) async throws -> Void
    ) async throws {
        let instruments = invoker.instruments
        guard instruments.isOn else {
            try await DurableContext.$current.withValue(context) { try await compensation(context, output) }
            return
        }
        try await instruments.withSpan("behaviorkit.compensation", stepAttributes(index)) { _ in
            do {
                try await DurableContext.$current.withValue(context) { try await compensation(context, output) }
                instruments.logger?.trace("step compensated", metadata: stepMetadata(index))
            } catch {
                var metadata = stepMetadata(index)
                metadata["error"] = "\(error)"
                if !invoker.keeper.isLost(key, token: context.attempt) {
                    instruments.logger?.error("compensation failed; the step's effects may remain", metadata: metadata)
                }
                throw error
            }
        }
    }

    private func stepAttributes(_ index: Int) -> SpanAttributes {
        DurableInstruments.attributes(
            key: stepKey(index),
            [
                "behaviorkit.transaction.name": .string(name), "behaviorkit.transaction.key": .string(key),
                "behaviorkit.step.index": .int64(Int64(index)), "behaviorkit.step.name": .string(steps[index].name),
            ])
    }

    private func stepMetadata(_ index: Int) -> Logger.Metadata {
        [
            "transaction": "\(name)", "key": "\(stepKey(index))", "step": "\(index)",
            "step_name": "\(steps[index].name)",
        ]
    }
}
