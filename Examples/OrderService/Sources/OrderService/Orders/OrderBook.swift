import Foundation
import Logging
import StateMachines
import Synchronization

/// The orders, each with its lifecycle as a `StateMachineRuntime`, saved to `OrderFiles` after
/// every transition.
///
/// At start, `restore()` brings every order back in the state its snapshot holds, before
/// recovery or the queue workers run: a checkout they take over sends its events (`cancel`,
/// `confirmPayment`) to the lifecycle, which must already be there, in the state it was in.
/// Restored after them, an old snapshot would overwrite what recovery did.
final class OrderBook: Sendable {
    typealias Lifecycle = StateMachineRuntime<OrderState, OrderEvent, OrderProgress, ContinuousClock>

    /// An order and its lifecycle.
    struct Entry: Sendable {
        let order: Order
        let lifecycle: Lifecycle
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let files: OrderFiles
    private let metrics: ShopMetrics
    private let logger: Logger

    init(files: OrderFiles, metrics: ShopMetrics, logger: Logger) {
        self.files = files
        self.metrics = metrics
        self.logger = logger
    }

    /// Brings back every saved order; returns them.
    func restore() throws -> [Entry] {
        var restored: [Entry] = []
        for saved in try files.loadAll() {
            let lifecycle = Lifecycle(OrderLifecycle.definition, context: OrderProgress())
            try lifecycle.restore(saved.lifecycle)
            let entry = Entry(order: saved.order, lifecycle: lifecycle)
            observe(entry)
            entries.withLock { $0[saved.order.id] = entry }
            restored.append(entry)
        }
        return restored
    }

    /// Adds `order` in `placed` and saves it; returns the existing order instead when its id is
    /// taken (a retried request).
    func place(_ order: Order) throws -> (entry: Entry, isNew: Bool) {
        let fresh = Entry(order: order, lifecycle: Lifecycle(OrderLifecycle.definition, context: OrderProgress()))
        let existing = entries.withLock { entries -> Entry? in
            if let existing = entries[order.id] { return existing }
            entries[order.id] = fresh
            return nil
        }
        if let existing { return (existing, false) }
        do {
            try save(fresh)
        } catch {
            entries.withLock { _ = $0.removeValue(forKey: order.id) }
            throw error
        }
        observe(fresh)
        return (fresh, true)
    }

    /// Sends `event` to the order's lifecycle; `nil` when there is no such order.
    @discardableResult
    func send(_ event: OrderEvent, to id: String) -> Outcome<OrderState, OrderEvent>? {
        guard let entry = self[id] else {
            logger.error("no order to send the event to", metadata: ["order": "\(id)", "event": "\(event)"])
            return nil
        }
        let outcome = entry.lifecycle.send(event)
        if let refusal = outcome.refusal {
            // A step run again after a takeover sends its event again: the lifecycle is past it.
            logger.debug("event refused", metadata: ["order": "\(id)", "refusal": "\(refusal)"])
        }
        return outcome
    }

    subscript(id: String) -> Entry? {
        entries.withLock { $0[id] }
    }

    /// Every order, by id.
    var all: [Entry] {
        entries.withLock { Array($0.values) }.sorted { $0.order.id < $1.order.id }
    }

    /// Stops every lifecycle: later events are refused, so nothing changes while the process
    /// winds down.
    func stopAll() {
        for entry in all { entry.lifecycle.stop() }
    }

    private func observe(_ entry: Entry) {
        entry.lifecycle.observe { [weak self] transition in
            guard let self else { return }
            self.logger.info(
                "order \(transition)", metadata: ["order": "\(entry.order.id)", "state": "\(transition.target)"])
            self.metrics.took(transition)
            do {
                try self.save(entry)
            } catch {
                self.logger.error(
                    "cannot save the order", metadata: ["order": "\(entry.order.id)", "error": "\(error)"])
            }
        }
    }

    /// Saves the order with its lifecycle's latest snapshot. Observers of one runtime are called
    /// one at a time, in order, so the last write holds the last state.
    private func save(_ entry: Entry) throws {
        try files.save(SavedOrder(order: entry.order, lifecycle: entry.lifecycle.snapshot))
    }
}
