import Commands
import Logging

/// The reminder sent a while after an order shipped ("how was it?"): a command on the durable
/// `reminders` queue, due after `delay`. It is a durable timer: a restart does not lose it, and
/// it runs once.
struct Reminders: Sendable {
    static let queueName = "reminders"
    static let kind = "shop.remind"

    struct Reminder: Codable, Sendable {
        var order: String
    }

    let queue: CommandQueue
    let delay: Duration

    /// Schedules the reminder of `order`; scheduling it again changes nothing.
    func schedule(for order: String) async throws {
        try await queue.enqueue(
            kind: Self.kind, arguments: Reminder(order: order), key: "reminder-\(order)", after: delay)
    }

    static func register(in registry: inout CommandRegistry, book: OrderBook, logger: Logger) {
        registry.register(kind, arguments: Reminder.self) { reminder in
            ClosureCommand("remind \(reminder.order)") {
                book.send(.remind, to: reminder.order)
                logger.info("reminder sent", metadata: ["order": "\(reminder.order)"])
            }
        }
    }
}
