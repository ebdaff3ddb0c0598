/// What one microstep did.
@usableFromInline
enum StepResult {
    /// The step was taken; `rule` is the first transition it took, the one `send` answers with.
    case took(rule: Int)
    /// No transition was taken: a `Refuse` was picked (`rejection`, a rule), guards failed, or
    /// nothing takes the trigger.
    case none(rejection: Int?, guardsFailed: Bool)
}
