/// A durable workflow: an async function with a name, a `Codable` input and output, whose
/// every step, sleep and received message is written down in a ``CommandJournal`` as it
/// happens, so that after a crash any worker runs the function again and each finished step
/// answers from the journal instead of running again (<doc:AWorkflowInAServer>).
///
/// ```swift
/// let checkout = Workflow("checkout") { (context, order: Order) -> Receipt in
///     let payment = try await context.step("charge") { step in
///         try await bank.charge(order.cents, idempotencyKey: step.key, fencingToken: step.fencingToken)
///     }
///     try await context.sleep(for: .seconds(3_600))
///     return try await context.step("ship") { _ in try await warehouse.ship(order, paid: payment) }
/// }
/// ```
///
/// The function must be deterministic: run again with the same input and the same recorded
/// answers, it must ask for the same steps, sleeps and messages in the same order. A run that
/// asks for another stops with ``WorkflowError/nondeterministic(key:position:recorded:requested:)``.
/// Everything that reads the world (a clock, a random number, a request) belongs in a step.
public struct Workflow<Input: Codable & Sendable, Output: Codable & Sendable>: Sendable {
    /// The record kind of a workflow's run.
    public static var journalKind: String { WorkflowRecord.runKind }

    /// The workflow's name in the journal: keep it stable across releases.
    public let name: String
    /// How a failed or cancelled run compensates its finished steps (retries, backoff, failure
    /// mode, deadline), unless its registration names another
    /// (``WorkflowRegistry/register(_:compensation:)``).
    public let compensation: CompensationPolicy
    /// The function.
    let body: @Sendable (WorkflowContext, Input) async throws -> Output

    /// The workflow `name` that runs `body`; a failed or cancelled run compensates its finished
    /// steps under `compensation`.
    public init(
        _ name: String, compensation: CompensationPolicy = .default,
        _ body: @escaping @Sendable (WorkflowContext, Input) async throws -> Output
    ) {
        self.name = name
        self.compensation = compensation
        self.body = body
    }
}
