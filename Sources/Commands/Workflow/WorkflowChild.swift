/// A child run that a workflow started (``WorkflowContext/start(_:key:input:)``): its
/// ``result()`` is awaited durably by the parent. Start several, then await each: fan-out and
/// fan-in.
///
/// ```swift
/// var picks: [WorkflowChild<Pick>] = []
/// for item in order.items {  // fan-out: every child runs meanwhile, on any worker
///     picks.append(try await context.start(picking, key: "\(context.key)-pick-\(item.id)", input: item))
/// }
/// var picked: [Pick] = []
/// for pick in picks { picked.append(try await pick.result()) }  // fan-in
/// ```
public struct WorkflowChild<Output: Codable & Sendable>: Sendable {
    /// The child run's key.
    public let key: String
    let context: WorkflowContext

    /// The child's output, once it settled, written down at the parent's next position: a
    /// parent taken up again (after a crash or a wait) gets the same answer from its own
    /// journal, so a child's result reaches its parent once. While the child runs, the parent
    /// waits, released; the child's settlement makes it due at once (``CommandJournal/wake(_:)``:
    /// any worker takes it up, woken by the queue), and it looks again after ten
    /// ``Workflows/pollInterval``s in case that wake was lost with its worker.
    ///
    /// - Throws: ``WorkflowError/failed(key:reason:)`` naming the child when it failed (the
    ///   parent may catch it); ``WorkflowError/undecodable(key:reason:)`` when its output does
    ///   not decode as `Output`; ``WorkflowError/nondeterministic(key:position:recorded:requested:)``
    ///   when the parent's journal recorded something else at this position.
    public func result() async throws -> Output {
        try await context.join(key, as: Output.self)
    }
}
