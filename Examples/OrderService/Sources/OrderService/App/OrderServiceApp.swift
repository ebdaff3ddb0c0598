import BehaviorKitServiceLifecycle
import Commands
import DurableMachines
import Foundation
import Hummingbird
import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import UnixSignals

/// An order service on BehaviorKit: run `OrderService --help` for its options, and see the
/// README beside `Package.swift`.
@main
enum OrderServiceApp {
    static func main() async {
        let options: Options
        do {
            options = try Options(Array(CommandLine.arguments.dropFirst()))
        } catch {
            print(error)
            exit(error == .help ? 0 : 2)
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = options.logLevel
            return handler
        }
        let prometheus = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: prometheus))
        let logger = Logger(label: "orderservice")
        do {
            try await run(options, prometheus: prometheus, logger: logger)
        } catch {
            logger.critical("the service stopped", metadata: ["error": "\(error)"])
            exit(1)
        }
    }

    static func run(_ options: Options, prometheus: PrometheusCollectorRegistry, logger: Logger) async throws {
        let shop = try await Shop(options: options, logger: logger)
        let portFile = URL(fileURLWithPath: options.portFile ?? "\(options.data)/server.port")
        try? FileManager.default.removeItem(at: portFile)
        let server = Application(
            router: Routes.router(shop: shop, prometheus: prometheus),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "OrderService"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? options.port
                try? "\(port)\n".write(to: portFile, atomically: true, encoding: .utf8)
                logger.info("listening", metadata: ["address": "\(options.host):\(port)"])
            },
            logger: logger)
        // A ServiceGroup starts them together and, on SIGTERM, stops them one at a time in the
        // reverse order: the server stops taking requests, the workers let their reminders and
        // the checkout runs under way finish or reach their wait (sending events to the
        // lifecycles in the store), the webhook stops, recovery waits for its own work, the
        // lifecycles' timers stop, and the journal closes last.
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    CommandJournalService(shop.journal),
                    DurableMachineService(shop.orders, owner: shop.invoker.owner),
                    RecoveryService(
                        shop.invoker, every: .seconds(30),
                        onReport: { report in if !report.isEmpty { logger.notice("\(report)") } }),
                    shop.webhooks,
                    WorkflowsService(workflows: shop.checkout.workflows),
                    QueueWorkerService(shop.reminderWorker),
                    server,
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await group.run()
        try await shop.orders.store.close()
        logger.info(
            "stopped gracefully",
            metadata: ["reminders": "\(shop.reminderWorker.statistics)"])
    }
}
