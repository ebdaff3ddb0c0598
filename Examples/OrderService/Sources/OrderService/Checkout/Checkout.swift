import Commands

/// The checkout of an order: a `DurableTransaction` of the three `CheckoutSteps`, enqueued on
/// the durable `checkouts` queue, where a `QueueWorker` runs it.
///
/// If the process dies during a checkout, a worker — this process's after a restart, or another
/// one on the same journal — takes it over once its lease expired and settles it as the order's
/// `recovery` says: compensates it (refund with the payment's id, release the stock, cancel the
/// order), or completes it (the charge answers with the payment already made under its key).
struct Checkout: Sendable {
    static let queueName = "checkouts"

    let queue: CommandQueue
    let invoker: JournaledInvoker

    /// The journal key of `order`'s checkout; its steps are `<key>/0`, `<key>/1`, `<key>/2`.
    static func key(of order: String) -> String { "checkout-\(order)" }

    func transaction(for order: Order) throws -> DurableTransaction {
        var quantities: [String: Int] = [:]
        for line in order.lines { quantities[line.sku, default: 0] += line.quantity }
        let registry = invoker.registry
        return invoker.transaction(
            "checkout", key: Self.key(of: order.id), recovery: order.recovery,
            steps: [
                try registry.step(
                    CheckoutSteps.reserve, arguments: ReserveStock(order: order.id, quantities: quantities)),
                try registry.step(CheckoutSteps.charge, arguments: Charge(order: order.id, cents: order.totalCents)),
                try registry.step(CheckoutSteps.ship, arguments: Ship(order: order.id, country: order.country)),
            ])
    }

    /// Enqueues `order`'s checkout; returns once it is durable. Enqueuing it again changes
    /// nothing: the key is the order's.
    func enqueue(_ order: Order) async throws {
        try await queue.enqueue(transaction(for: order))
    }

    /// The checkout's record and its steps' records, as the journal has them.
    func records(of order: String) async throws -> (checkout: CommandJournalRecord?, steps: [CommandJournalRecord]) {
        let key = Self.key(of: order)
        return (try await invoker.journal.record(forKey: key), try await invoker.journal.records(parentKey: key))
    }
}
