import Tracing

extension TieredLookup {
    /// ``answer(for:policy:)`` when there is a logger, a metrics backend or a tracer: in a span
    /// `behaviorkit.lookup` when there is a tracer, with the fast path's reads counted.
    @usableFromInline
    func answerReported(
        for key: Key, policy: LookupPolicy, _ instruments: LookupInstruments
    ) async throws(LookupError<Key>) -> LookupAnswer<Value> {
        guard let tracer = instruments.tracer else { return try await answerMeasured(for: key, policy: policy) }
        return try await answerTraced(for: key, policy: policy, tracer: tracer)
    }

    private func answerTraced<Traced: Tracer>(
        for key: Key, policy: LookupPolicy, tracer: Traced
    ) async throws(LookupError<Key>) -> LookupAnswer<Value> {
        let span = tracer.startSpan(
            "behaviorkit.lookup", context: InstrumentationContext.current ?? .topLevel, ofKind: .internal)
        defer { span.end() }
        span.attributes["behaviorkit.lookup.name"] = name
        span.attributes["behaviorkit.lookup.key"] = "\(key)"
        let result = await InstrumentationContext.withValue(span.context) {
            () async -> Result<LookupAnswer<Value>, LookupError<Key>> in
            do throws(LookupError<Key>) {
                return .success(try await answerMeasured(for: key, policy: policy))
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

    /// The lookup, with the reads of the front ``MemoryCache`` counted (and one in 64 timed)
    /// when there is a metrics backend.
    private func answerMeasured(
        for key: Key, policy: LookupPolicy
    ) async throws(LookupError<Key>) -> LookupAnswer<Value> {
        guard let front, policy.readsCaches else {
            return try await lookUpBelowFront(key, policy: policy, from: 0)
        }
        let measured = instruments?.metrics != nil ? instruments : nil
        let began = measured?.samplesFrontRead() == true ? clock.now : nil
        var refreshDue = false
        let value = front.frontValue(forKey: key, timing: clock, refreshDue: &refreshDue)
        measured?.frontRead(hit: value != nil, latency: began.map { clock.now - $0 })
        if let value {
            if refreshDue { refreshInBackground(key) }
            return LookupAnswer(value: value, tier: tiers[0].name, tierIndex: 0)
        }
        return try await lookUpBelowFront(key, policy: policy, from: 1)
    }
}
