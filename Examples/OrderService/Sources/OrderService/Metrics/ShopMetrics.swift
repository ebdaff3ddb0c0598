import Commands
import DurableMachines
import Metrics
import StateMachines

/// The application's own metrics, through swift-metrics (exported by Prometheus at
/// `GET /metrics`):
///
/// - `orders_placed_total`: orders accepted by `POST /orders`;
/// - `checkouts_total{outcome="completed"|"compensated"}`: checkouts that ended, counted when
///   a checkout step moves the order's lifecycle to `shipped` or `cancelled` — in the process
///   that settled them, the one that recovered a checkout included;
/// - `order_transitions_total{to}`: every lifecycle transition a checkout made that changed the
///   state (the payment deadline's are in `behaviorkit_machine_steps_total{trigger="timer"}`,
///   counted by the durable machine);
/// - `product_lookups_total{tier}`: which tier of the product lookup answered;
/// - `orders{state}`: the orders in each state now, in the store every process shares, a gauge
///   set when `/metrics` is read.
struct ShopMetrics: Sendable {
    private let placed = Counter(label: "orders_placed_total")
    private let completed = Counter(label: "checkouts_total", dimensions: [("outcome", "completed")])
    private let compensated = Counter(label: "checkouts_total", dimensions: [("outcome", "compensated")])

    func placedOrder() {
        placed.increment()
    }

    /// Counts the transitions of a step the checkout applied (not a replay).
    func took(_ step: MachineStep<OrderState, OrderEvent>) {
        // A reminder is internal: the order stays where it is.
        for transition in step.transitions where !transition.isInternal {
            Counter(label: "order_transitions_total", dimensions: [("to", transition.target.rawValue)]).increment()
            switch transition.target {
            case .shipped: completed.increment()
            case .cancelled: compensated.increment()
            case .unpaid, .placed, .paying, .paid: break
            }
        }
    }

    func answered(fromTier tier: String) {
        Counter(label: "product_lookups_total", dimensions: [("tier", tier)]).increment()
    }

    /// Sets the gauge from the orders, before an export.
    func record(orders counts: [String: Int]) {
        for state in OrderState.leaves {
            Gauge(label: "orders", dimensions: [("state", state.rawValue)]).record(counts[state.rawValue] ?? 0)
        }
    }
}
