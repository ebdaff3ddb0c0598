import ServiceLifecycle

/// Stops every order's lifecycle on a graceful shutdown.
///
/// `StateMachineRuntimeService` (BehaviorKitServiceLifecycle) stops one runtime; this service
/// has one per order, and orders are added while it runs.
struct OrderBookService: Service {
    let book: OrderBook

    func run() async throws {
        try? await gracefulShutdown()
        book.stopAll()
    }
}
