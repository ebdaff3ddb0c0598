/// The compensation of a finished step of a run (``WorkflowContext/step(_:retry:_:compensate:)``),
/// bound to the step's output: run, newest first, when the run fails or is cancelled.
struct WorkflowCompensation: Sendable, CustomStringConvertible {
    /// The step's position in the run.
    let position: Int
    /// The step's name.
    let name: String
    /// Undoes the step, given the compensation's context.
    let undo: @Sendable (DurableContext) async throws -> Void

    /// How the compensation is named in a failure reason: "compensation of step 'charge' at position 2".
    var description: String { "compensation of step '\(name)' at position \(position)" }
}
