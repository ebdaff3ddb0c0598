import Commands
import Hummingbird
import Logging
import Prometheus

/// The service's HTTP API.
///
/// | endpoint | what it does |
/// |---|---|
/// | `POST /orders` | places an order, enqueues its checkout; 202 with the order |
/// | `GET /orders/{id}` | the order: lifecycle state, checkout in the journal, payments, parcel |
/// | `GET /orders` | every order with its state |
/// | `GET /products/{sku}` | a product through the tiered lookup, and its stock |
/// | `GET /metrics` | Prometheus metrics |
/// | `GET /health` | `ok`, and the worker identity of this process |
enum Routes {
    static func router(shop: Shop, prometheus: PrometheusCollectorRegistry) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: LogRequestsMiddleware(.debug))
        router.add(middleware: MetricsMiddleware())
        OrderRoutes.add(to: router, shop: shop)
        ProductRoutes.add(to: router, shop: shop)
        MetricsRoutes.add(to: router, shop: shop, prometheus: prometheus)
        router.get("health") { _, _ in ["status": "ok", "owner": shop.invoker.owner] }
        return router
    }
}
