import Commands
import DurableMachines
import Hummingbird
import Prometheus

/// `GET /metrics`: every swift-metrics metric of the process, in Prometheus's text format.
enum MetricsRoutes {
    static func add(to router: Router<BasicRequestContext>, shop: Shop, prometheus: PrometheusCollectorRegistry) {
        router.get("metrics") { _, _ in
            shop.metrics.record(orders: try await shop.orders.countsByState())
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: prometheus.emitToString())))
        }
    }
}
