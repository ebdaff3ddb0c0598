import BehaviorKitSync

/// Single-flight with versions: concurrent loads of one key (under one ``LookupPolicy``) share one
/// run of their work, on a task of its own, and a load can be made stale while it runs.
///
/// The work belongs to the flight, not to the load that started it: it goes on while any load
/// waits, and is cancelled when the last one leaves (a background flight runs to its end with
/// nobody waiting). A cancelled load leaves at once with `.cancelled`. ``invalidate(_:)`` marks
/// the flights of a key stale: they still answer the loads waiting for them, the work can ask
/// ``isStale(_:)`` before it writes what it found, and later loads start a flight of their own.
///
/// ``TieredLookup`` walks its tiers through one; ``Coalescing`` shares a tier's lookups through
/// another.
final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The work of a flight: given the flight (to ask whether it went stale), what it found.
    typealias Work = @Sendable (Flight<Value>) async -> FlightResult<Value>

    private let table = LockedValue(FlightTable<Key, Value>())

    /// Joins the flight of `key` under `policy` under way, or starts one running `work`, and
    /// waits for its result; calls `joined` (once, before waiting) when it joined one.
    func result(
        for key: Key, policy: LookupPolicy, joined: () -> Void, work: @escaping Work
    ) async -> FlightResult<Value> {
        if Task.isCancelled { return .cancelled }
        let ticket = FlightTicket<Value>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<FlightResult<Value>, Never>) in
                let outcome = join(key, policy: policy, ticket: ticket, continuation: continuation, work: work)
                switch outcome {
                case .cancelled: continuation.resume(returning: .cancelled)
                case .joined: joined()
                case .started: break
                }
            }
        } onCancel: {
            leave(key, ticket: ticket)
        }
    }

    /// Starts a flight of `key` under `policy` that nobody waits for, unless one is under way;
    /// `settle` runs after its work, on its task. Whether it started one.
    func launchInBackground(
        _ key: Key, policy: LookupPolicy, work: @escaping Work,
        settle: @escaping @Sendable (FlightResult<Value>) async -> Void
    ) -> Bool {
        table.withLock { table -> Bool in
            guard table.joinable(key, policy: policy) == nil else { return false }
            _ = launch(key, policy: policy, isBackground: true, in: &table, work: work, settle: settle)
            return true
        }
    }

    /// Marks every flight of `key` stale: it answers the loads waiting for it, but later loads
    /// do not join it.
    func invalidate(_ key: Key) {
        table.withLock { $0.invalidate(key) }
    }

    /// Whether `flight` was made stale while under way (`false` for no flight).
    func isStale(_ flight: Flight<Value>?) -> Bool {
        guard let flight else { return false }
        return table.withLock { _ in flight.isStale }
    }

    /// Joins the flight of `key` under way, or starts one.
    private func join(
        _ key: Key, policy: LookupPolicy, ticket: FlightTicket<Value>,
        continuation: CheckedContinuation<FlightResult<Value>, Never>, work: @escaping Work
    ) -> JoinOutcome {
        table.withLock { table -> JoinOutcome in
            // Cancelled before it could join: the cancellation handler found no flight.
            if ticket.isCancelled { return .cancelled }
            table.nextWaiter &+= 1
            ticket.id = table.nextWaiter
            let outcome: JoinOutcome
            let flight: Flight<Value>
            if let joinable = table.joinable(key, policy: policy) {
                (flight, outcome) = (joinable, .joined)
            } else {
                flight = launch(key, policy: policy, isBackground: false, in: &table, work: work, settle: nil)
                outcome = .started
            }
            flight.waiters[ticket.id] = continuation
            ticket.flight = flight
            return outcome
        }
    }

    /// Starts a flight of `key` on a task of its own, in `table`.
    private func launch(
        _ key: Key, policy: LookupPolicy, isBackground: Bool, in table: inout FlightTable<Key, Value>,
        work: @escaping Work, settle: (@Sendable (FlightResult<Value>) async -> Void)?
    ) -> Flight<Value> {
        let flight = Flight<Value>(policy: policy, isBackground: isBackground)
        table.byKey[key, default: []].append(flight)
        flight.task = Task {
            let result = await work(flight)
            self.land(flight, key: key, result)
            await settle?(result)
        }
        return flight
    }

    /// Answers every load still waiting for `flight`.
    private func land(_ flight: Flight<Value>, key: Key, _ result: FlightResult<Value>) {
        let waiters = table.withLock { table in
            table.detach(flight, key: key)
            defer { flight.waiters = [:] }
            return Array(flight.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }

    /// A cancelled load leaves its flight at once with `.cancelled`; the last to leave cancels
    /// the work.
    private func leave(_ key: Key, ticket: FlightTicket<Value>) {
        let (waiter, abandoned) = table.withLock {
            table -> (CheckedContinuation<FlightResult<Value>, Never>?, Flight<Value>?) in
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
}

/// What a load did on joining a ``SingleFlight``.
private enum JoinOutcome {
    case joined, started, cancelled
}
