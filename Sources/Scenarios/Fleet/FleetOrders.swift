import Commands

/// The fleet's work: orders of three durable steps — reserve, charge, ship — whose effects go
/// to the ledger. The charge returns a payment id that the shipment reads and the refund
/// receives. One order in ten fails at the shipment and is compensated; even orders complete
/// when taken over half-done, odd ones are compensated.
enum FleetOrders {
    static let queue = "orders"
    static let steps = ["fleet.reserve", "fleet.charge", "fleet.ship"]

    struct Order: Codable, Sendable {
        var number: Int
        var key: String { "order-\(number)" }
        var failsAtShipment: Bool { number % 10 == 7 }
    }

    struct ShipmentRefused: Error, CustomStringConvertible {
        let order: Int
        var description: String { "the carrier refused order \(order)" }
    }

    /// The steps of the orders, for a worker identified as `worker`.
    static func registry(_ ledger: FleetLedger, worker: String) -> CommandRegistry {
        var registry = CommandRegistry()
        for (index, kind) in steps.enumerated() {
            registry.register(kind, arguments: Order.self, output: String.self) { order, context in
                try await run(index, order, context, ledger, worker)
            } compensate: { order, output, context in
                let execution = try await ledger.start(
                    "undo", key: context.key, root: order.key, worker: worker, token: context.fencingToken)
                if index == 1, let output, output != "pay-\(order.key)" {
                    try await ledger.anomaly("the refund of \(context.key) received '\(output)'")
                }
                try await ledger.undo(context.key, payment: index == 1 ? output : nil, ending: execution)
            }
        }
        // A schedule's tick: its effect keyed by its record, once per tick.
        registry.register(FleetTick.kind, arguments: FleetTick.self, output: String.self) { tick, context in
            let execution = try await ledger.start(
                "run", key: context.key, root: context.key, worker: worker, token: context.fencingToken)
            try await ledger.apply(context.key, value: tick.schedule, ending: execution)
            return tick.schedule
        }
        return registry
    }

    private static func run(
        _ index: Int, _ order: Order, _ context: DurableContext, _ ledger: FleetLedger, _ worker: String
    ) async throws -> String {
        let execution = try await ledger.start(
            "run", key: context.key, root: order.key, worker: worker, token: context.fencingToken)
        try await Task.sleep(for: .milliseconds(2))  // a remote call
        if index == 2 {
            let payment = try context.output(ofStep: 1, as: String.self)
            if payment != "pay-\(order.key)" {
                try await ledger.anomaly("\(context.key) read the payment '\(payment)'")
            }
            if order.failsAtShipment {
                try await ledger.end(execution)
                throw ShipmentRefused(order: order.number)
            }
        }
        let output = ["res-", "pay-", "ship-"][index] + order.key
        try await ledger.apply(context.key, value: output, ending: execution)
        return output
    }

    /// Order `number` as a durable transaction on `invoker`.
    static func transaction(_ number: Int, _ invoker: JournaledInvoker) throws -> DurableTransaction {
        let order = Order(number: number)
        let steps = try steps.map { try invoker.registry.step($0, arguments: order) }
        return invoker.transaction(
            "order", key: order.key, recovery: number % 2 == 0 ? .complete : .compensate, steps: steps)
    }
}
