import Commands
import DurableMachines
import Logging

/// The checkout of an order: one durable ``Workflow`` (`CheckoutWorkflow`), started under the
/// order's id on the durable `checkouts` queue, where every process's `Workflows` worker runs it.
///
/// If the process dies during a checkout, a worker — this process's after a restart, or another
/// one on the same journal — takes the run up once its lease expired (or, when it waits for the
/// payment confirmation, as soon as the message comes or the deadline passes) and goes on from
/// its last finished step: each step runs once.
struct Checkout: Sendable {
    static let queueName = "checkouts"

    let workflows: Workflows
    let workflow: Workflow<Order, Shipment>

    /// The checkout of `steps`, run on `queue` under `invoker`'s leases; a checkout whose
    /// payment is not confirmed within `paymentDeadline` rolls back. A run waiting for its
    /// confirmation is woken by the send: made due in the journal, and taken up at once in this
    /// process and in any on PostgreSQL, at the workers' next poll (every `pollInterval`) in
    /// another process on SQLite.
    init(
        steps: CheckoutSteps, queue: CommandQueue, invoker: JournaledInvoker, paymentDeadline: Duration,
        pollInterval: Duration = .seconds(1)
    ) {
        workflow = CheckoutWorkflow.make(steps: steps, paymentDeadline: paymentDeadline)
        var registry = WorkflowRegistry()
        registry.register(workflow)
        workflows = Workflows(registry, queue: queue, invoker: invoker, slots: 4, pollInterval: pollInterval)
    }

    /// The journal key of `order`'s checkout: its run; its steps are `<key>/0`, `<key>/1`, ….
    static func key(of order: String) -> String { "checkout-\(order)" }

    /// Starts `order`'s checkout; returns once it is durable. Starting it again changes nothing:
    /// the key is the order's, and the handle answers the first run.
    @discardableResult
    func start(_ order: Order) async throws -> WorkflowHandle<Shipment> {
        try await workflows.start(workflow, key: Self.key(of: order.id), input: order)
    }

    /// Sends the payment provider's confirmation to `order`'s checkout, once per payment id.
    func confirm(_ confirmation: PaymentConfirmation, order: String) async throws {
        try await workflows.send(
            confirmation, to: Self.key(of: order), topic: PaymentConfirmation.topic, id: confirmation.payment)
    }

    /// The checkout's run as the journal has it: its state, its positions, its compensations.
    func run(of order: String) async throws -> WorkflowRunDetails? {
        guard let management = workflows.journal as? any CommandJournalManagement else { return nil }
        return try await management.workflowRun(Self.key(of: order))
    }
}
