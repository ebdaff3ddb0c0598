import Tracing

/// The trace context a queued record carries from the caller that enqueued it to the worker
/// that runs it: the current context injected by the tracer into text headers (W3C
/// `traceparent`, or whatever the bootstrapped tracer writes), and extracted on the other side.
package enum TraceCarrier {
    /// The current trace context as headers, or `nil` with no tracer or no current context.
    package static func current() -> [String: String]? {
        let tracer = InstrumentationSystem.tracer
        guard !(tracer is NoOpTracer), let context = InstrumentationContext.current else { return nil }
        var headers: [String: String] = [:]
        tracer.inject(context, into: &headers, using: Headers())
        return headers.isEmpty ? nil : headers
    }

    /// The context `headers` carry, as `tracer` reads them; `nil` when they carry none.
    static func context(_ headers: [String: String]?, tracer: any Tracer) -> InstrumentationContext? {
        guard let headers, !headers.isEmpty else { return nil }
        var context = InstrumentationContext.topLevel
        tracer.extract(headers, into: &context, using: Headers())
        return context
    }

    /// Reads and writes headers in a dictionary.
    struct Headers: Injector, Extractor {
        func inject(_ value: String, forKey key: String, into headers: inout [String: String]) {
            headers[key] = value
        }

        func extract(key: String, from headers: [String: String]) -> String? {
            headers[key]
        }
    }
}
