public import BehaviorKitSync
import Tracing

extension TieredLookup {
    /// A read of the front ``MemoryCache``, counted (and one in 64 timed) when there is a metrics
    /// backend.
    @inlinable
    func measuredFrontValue(
        _ front: MemoryCache<Key, Value>, _ key: Key, _ instruments: LookupInstruments, refreshDue: inout Bool
    ) -> Value? {
        guard instruments.measuresFront else {
            return front.frontValue(forKey: key, timing: clock, refreshDue: &refreshDue)
        }
        let began: Duration? = instruments.samplesFrontRead() ? clock.now : nil
        let value = front.frontValue(forKey: key, timing: clock, refreshDue: &refreshDue)
        var latency: Duration?
        if let began { latency = clock.now - began }
        instruments.frontRead(hit: value != nil, latency: latency)
        return value
    }

    /// The lookup as ``answer(for:policy:)`` makes it, for the traced path.
    func answerMeasured(
        for key: Key, policy: LookupPolicy, _ instruments: LookupInstruments
    ) async throws(LookupError<Key>) -> LookupAnswer<Value> {
        guard let front, policy.readsCaches else {
            return try await lookUpBelowFront(key, policy: policy, from: 0)
        }
        var refreshDue = false
        if let value = measuredFrontValue(front, key, instruments, refreshDue: &refreshDue) {
            if refreshDue { refreshInBackground(key) }
            return LookupAnswer(value: value, tier: tiers[0].name, tierIndex: 0)
        }
        return try await lookUpBelowFront(key, policy: policy, from: 1)
    }

    /// The lookup in a span `behaviorkit.lookup`.
    @usableFromInline
    func answerTraced(
        for key: Key, policy: LookupPolicy, _ instruments: LookupInstruments
    ) async throws(LookupError<Key>) -> LookupAnswer<Value> {
        guard let tracer = instruments.tracer else {
            return try await answerMeasured(for: key, policy: policy, instruments)
        }
        return try await answerTraced(for: key, policy: policy, instruments, tracer: tracer)
    }

    private func answerTraced<Traced: Tracer>(
        for key: Key, policy: LookupPolicy, _ instruments: LookupInstruments, tracer: Traced
    ) async throws(LookupError<Key>) -> LookupAnswer<Value> {
        let span = tracer.startSpan(
            "behaviorkit.lookup", context: InstrumentationContext.current ?? .topLevel, ofKind: .internal)
        defer { span.end() }
        span.attributes["behaviorkit.lookup.name"] = name
        span.attributes["behaviorkit.lookup.key"] = "\(key)"
        let result = await InstrumentationContext.withValue(span.context) {
            () async -> Result<LookupAnswer<Value>, LookupError<Key>> in
            do throws(LookupError<Key>) {
                return .success(try await answerMeasured(for: key, policy: policy, instruments))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let answer):
            span.attributes["behaviorkit.outcome"] = "found"
            span.attributes["behaviorkit.lookup.tier"] = answer.tier
            span.attributes["behaviorkit.lookup.tier_index"] = answer.tierIndex
        case .failure(let error):
            span.attributes["behaviorkit.outcome"] =
                switch error.code {
                case .notFound: "not_found"
                case .unavailable: "unavailable"
                case .cancelled: "cancelled"
                }
            if error.code == .unavailable {
                span.recordError(error)
                span.setStatus(SpanStatus(code: .error))
            }
        }
        return try result.get()
    }
}
