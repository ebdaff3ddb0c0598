import Commands
import Metrics
import StateMachines

/// The application's own metrics, through swift-metrics (exported by Prometheus at
/// `GET /metrics`):
///
/// - `orders_placed_total`: orders accepted by `POST /orders`;
/// - `checkouts_total{outcome="completed"|"compensated"}`: checkouts that ended, counted when
///   the order's lifecycle enters `shipped` or `cancelled` — in the process that settled them,
///   the one that recovered a checkout included;
/// - `order_transitions_total{to}`: every lifecycle transition that changed the state;
/// - `product_lookups_total{tier}`: which tier of the product lookup answered;
/// - `orders{state}`: the orders in each state now (all of them, restored ones too), and
///   `checkout_queue_records{outcome}`: what this process's checkout worker did (claimed,
///   taken over, done, compensated, failed) — both gauges, set when `/metrics` is read.
struct ShopMetrics: Sendable {
    private let placed = Counter(label: "orders_placed_total")
    private let completed = Counter(label: "checkouts_total", dimensions: [("outcome", "completed")])
    private let compensated = Counter(label: "checkouts_total", dimensions: [("outcome", "compensated")])

    func placedOrder() {
        placed.increment()
    }

    func took(_ transition: Transition<OrderState, OrderEvent>) {
        guard !transition.isInternal else { return }  // a reminder: the order stays where it is
        Counter(label: "order_transitions_total", dimensions: [("to", transition.target.rawValue)]).increment()
        switch transition.target {
        case .shipped: completed.increment()
        case .cancelled: compensated.increment()
        case .placed, .paying, .paid: break
        }
    }

    func answered(fromTier tier: String) {
        Counter(label: "product_lookups_total", dimensions: [("tier", tier)]).increment()
    }

    /// Sets the gauges from the orders and the checkout worker, before an export.
    func record(orders: [OrderBook.Entry], checkoutWorker statistics: QueueWorkerStatistics) {
        var counts = Dictionary(uniqueKeysWithValues: OrderState.allCases.map { ($0, 0) })
        for entry in orders { counts[entry.lifecycle.state, default: 0] += 1 }
        for (state, count) in counts {
            Gauge(label: "orders", dimensions: [("state", state.rawValue)]).record(count)
        }
        let queue: [(String, Int)] = [
            ("claimed", statistics.claimed), ("taken_over", statistics.takenOver), ("done", statistics.done),
            ("compensated", statistics.compensated), ("failed", statistics.failed),
        ]
        for (outcome, count) in queue {
            Gauge(label: "checkout_queue_records", dimensions: [("outcome", outcome)]).record(count)
        }
    }
}
