import Logging
import Tracing

extension DurableTransaction {
    /// Runs step `index` with `context`: in a span `behaviorkit.step` when a tracer is there,
    /// logged at `trace` level (and its failure at `debug`).
    func runStep(_ index: Int, _ context: DurableContext) async throws -> [UInt8]? {
        let instruments = invoker.instruments
        guard instruments.isOn else {
            return try await DurableContext.$current.withValue(context) { try await steps[index].run(context) }
        }
        return try await instruments.withSpan("behaviorkit.step", stepAttributes(index)) { _ in
            do {
                let output = try await DurableContext.$current.withValue(context) {
                    try await steps[index].run(context)
                }
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
