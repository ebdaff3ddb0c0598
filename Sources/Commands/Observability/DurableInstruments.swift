package import Logging
import Metrics
package import Tracing

/// What a ``JournaledInvoker`` — and the transactions, recoveries and queue workers it runs —
/// reports through: its logger, and the metrics factory and tracer current when it was made.
///
/// Each is `nil` when absent (no logger given; swift-metrics' or swift-distributed-tracing's
/// no-op default), so that durable work without a backend costs one `Bool` test per operation.
package final class DurableInstruments: Sendable {
    package let logger: Logger?
    package let metrics: MetricCache?
    package let tracer: (any Tracer)?
    /// Whether any of the three is there.
    package let isOn: Bool

    package init(logger: Logger?) {
        self.logger = logger
        self.metrics = MetricCache.make()
        let tracer = InstrumentationSystem.tracer
        self.tracer = tracer is NoOpTracer ? nil : tracer
        self.isOn = logger != nil || metrics != nil || self.tracer != nil
    }

    /// Runs `body` in a span named `name`, a child of the current span, when a tracer is there
    /// (`body` gets `nil` otherwise); the span records what `body` throws.
    package func withSpan<T>(
        _ name: String, _ attributes: SpanAttributes, _ body: ((any Span)?) async throws -> T
    ) async throws -> T {
        guard let tracer else { return try await body(nil) }
        return try await Self.withSpan(name, attributes, tracer: tracer, parent: nil, kind: .internal, body)
    }

    /// Runs `body` in a span named `name` that continues the trace whose context `traceContext`
    /// carries (a queued record's: its enqueuing caller's), as a consumer span; without one, as
    /// ``withSpan(_:_:_:)``.
    package func withSpan<T>(
        _ name: String, _ attributes: SpanAttributes, continuing traceContext: [String: String]?,
        _ body: ((any Span)?) async throws -> T
    ) async throws -> T {
        guard let tracer else { return try await body(nil) }
        let parent = TraceCarrier.context(traceContext, tracer: tracer)
        return try await Self.withSpan(
            name, attributes, tracer: tracer, parent: parent, kind: parent == nil ? .internal : .consumer, body)
    }

    private static func withSpan<T, Traced: Tracer>(
        _ name: String, _ attributes: SpanAttributes, tracer: Traced, parent: InstrumentationContext?,
        kind: SpanKind, _ body: ((any Span)?) async throws -> T
    ) async throws -> T {
        let span = tracer.startSpan(name, context: parent ?? InstrumentationContext.current ?? .topLevel, ofKind: kind)
        span.attributes = attributes
        defer { span.end() }
        do {
            return try await InstrumentationContext.withValue(span.context) { try await body(span) }
        } catch {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
            throw error
        }
    }
}

/// How a durable transaction, a journaled command or a queued record ended: the `outcome`
/// dimension of the metrics and attribute of the spans.
enum DurableOutcome: String, Sendable {
    case completed, compensated, failed, done, replayed, unreadable, busy, error, retried
    case alreadyCompleted = "already_completed"
    case alreadySettled = "already_settled"
    case leaseLost = "lease_lost"
    case leftPending = "left_pending"

    /// How an error thrown by durable work reads as an outcome.
    init(_ error: any Error) {
        switch error {
        case let error as TransactionError: self = error.compensationFailures.isEmpty ? .compensated : .failed
        case CommandJournalError.leaseLost: self = .leaseLost
        case CommandJournalError.busy: self = .busy
        case CommandJournalError.alreadySettled: self = .alreadySettled
        case is CommandRegistryError: self = .unreadable
        case is RescheduledAttempt: self = .retried
        default: self = .error
        }
    }
}
