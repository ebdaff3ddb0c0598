import BehaviorKitSync

extension TieredLookup {
    typealias Flight = Chains.Flight<Value>

    /// The slow path: the remembered "not found", then one walk per key from tier `start` on.
    @usableFromInline
    func lookUpBelowFront(
        _ key: Key, policy: LookupPolicy, from start: Int
    ) async throws(LookupError<Key>) -> LookupAnswer<Value> {
        if policy.readsCaches, let negativeCache, negativeCache.value(forKey: key) != nil {
            counters.withLock { $0.statistics.rememberedNotFound += 1 }
            instruments?.rememberedNotFound()
            throw LookupError(code: .notFound, key: key, isRemembered: true)
        }
        if Task.isCancelled { throw LookupError(code: .cancelled, key: key) }
        let ticket = FlightTicket<Value>()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<FlightResult<Value>, Never>) in
                join(key, policy: policy, from: start, ticket: ticket, continuation: continuation)
            }
        } onCancel: {
            leave(key, ticket: ticket)
        }
        switch result {
        case .found(let value, let index):
            return LookupAnswer(value: value, tier: tiers[index].name, tierIndex: index)
        case .notFound(let failures, let sourcesFailed):
            throw LookupError(code: sourcesFailed ? .unavailable : .notFound, key: key, failures: failures)
        case .cancelled:
            throw LookupError(code: .cancelled, key: key)
        }
    }

    /// Joins the flight of `key` under way, or starts one.
    private func join(
        _ key: Key, policy: LookupPolicy, from start: Int, ticket: FlightTicket<Value>,
        continuation: CheckedContinuation<FlightResult<Value>, Never>
    ) {
        var joinedFlight = false
        let joined = flights.withLock { table -> Bool in
            // Cancelled before it could join: the cancellation handler found no flight.
            if ticket.isCancelled { return false }
            table.nextWaiter &+= 1
            ticket.id = table.nextWaiter
            if let flight = table.joinable(key, policy: policy) {
                counters.withLock { $0.statistics.coalesced += 1 }
                joinedFlight = true
                flight.waiters[ticket.id] = continuation
                ticket.flight = flight
            } else {
                let flight = launch(key, policy: policy, from: start, isBackground: false, in: &table)
                flight.waiters[ticket.id] = continuation
                ticket.flight = flight
            }
            return true
        }
        if !joined { continuation.resume(returning: .cancelled) }
        if joinedFlight { instruments?.coalesced() }
    }

    /// Starts a flight of `key` on a task of its own, in `table`.
    func launch(
        _ key: Key, policy: LookupPolicy, from start: Int, isBackground: Bool, in table: inout FlightTable<Key, Value>
    ) -> Flight {
        let flight = Flight(policy: policy, start: start, isBackground: isBackground)
        table.byKey[key, default: []].append(flight)
        flight.task = Task { await self.fly(flight, key: key) }
        return flight
    }

    /// A cancelled lookup leaves its flight at once with `.cancelled`; the last to leave
    /// cancels the walk.
    private func leave(_ key: Key, ticket: FlightTicket<Value>) {
        let (waiter, abandoned) = flights.withLock {
            table -> (CheckedContinuation<FlightResult<Value>, Never>?, Flight?) in
            guard let flight = ticket.flight else {
                ticket.isCancelled = true
                return (nil, nil)
            }
            guard let waiter = flight.waiters.removeValue(forKey: ticket.id) else { return (nil, nil) }
            guard flight.waiters.isEmpty, !flight.isBackground else { return (waiter, nil) }
            table.detach(flight, key: key)
            return (waiter, flight)
        }
        waiter?.resume(returning: .cancelled)
        abandoned?.task?.cancel()
    }

    /// Walks the tiers for `flight`, then answers every lookup still waiting.
    private func fly(_ flight: Flight, key: Key) async {
        let result = await walk(key, flight: flight)
        let waiters = flights.withLock { table in
            table.detach(flight, key: key)
            defer { flight.waiters = [:] }
            return Array(flight.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: result) }
        if flight.isBackground { await settleRefresh(of: key, result) }
    }
}
