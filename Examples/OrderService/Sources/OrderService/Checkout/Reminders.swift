import Commands
import DurableMachines
import Logging

/// The reminder sent a while after an order shipped ("how was it?"): a command on the durable
/// `reminders` queue, emitted by the step that ships the order (`OrderLifecycle.machine`) and
/// due `--reminder-delay` later. It is a durable timer: a restart does not lose it, and it runs once.
enum Reminders {
    static let queueName = "reminders"
    static let kind = "shop.remind"

    struct Reminder: Codable, Sendable {
        var order: String
    }

    /// The reminder of `order`, as a step emits it.
    static func command(for order: String, after delay: Duration) throws -> MachineCommand {
        try MachineCommand(kind: kind, arguments: Reminder(order: order), on: queueName, after: delay)
    }

    static func register(in registry: inout CommandRegistry, orders: OrderLifecycles, logger: Logger) {
        registry.register(kind, arguments: Reminder.self) { reminder in
            ClosureCommand("remind \(reminder.order)") {
                // One reminder per order: run again after a crash, it counts once.
                let step = try await orders.send(.remind, to: reminder.order, id: "remind")
                if !step.isReplay { logger.info("reminder sent", metadata: ["order": "\(reminder.order)"]) }
            }
        }
    }
}
