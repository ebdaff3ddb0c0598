/// One state of a definition as the engine reads it: where its rules, actions and timers lie in
/// the compiled definition's buffers, and what it is.
@usableFromInline
struct CompiledState {
    @usableFromInline let isFinal: Bool
    /// Whether the state has timers or effects, so that entering or leaving it needs the runtime.
    @usableFromInline let hasActivity: Bool
    @usableFromInline let hasEffects: Bool
    /// The rules `send` offers an event in this state, its own then its ancestors', innermost
    /// first: `CompiledDefinition.selection[selectionStart ..< selectionEnd]` (rule indices).
    @usableFromInline let selectionStart: Int
    @usableFromInline let selectionEnd: Int
    /// The entry and exit actions: `CompiledDefinition.actions[entryStart ..< entryEnd]`, and
    /// likewise with `exitStart` and `exitEnd`.
    @usableFromInline let entryStart: Int
    @usableFromInline let entryEnd: Int
    @usableFromInline let exitStart: Int
    @usableFromInline let exitEnd: Int
    /// The eventless rules are `CompiledDefinition.triggerless[eventlessStart ..< eventlessEnd]`
    /// and the done rules `triggerless[doneStart ..< doneEnd]` (rule indices), in the order written.
    @usableFromInline let eventlessStart: Int
    @usableFromInline let eventlessEnd: Int
    @usableFromInline let doneStart: Int
    @usableFromInline let doneEnd: Int
    /// The timers, numbered `timerStart ..< timerEnd` in `CompiledDefinition.timerDelays`.
    @usableFromInline let timerStart: Int
    @usableFromInline let timerEnd: Int
}
