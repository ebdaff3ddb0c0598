import BehaviorKitSync

/// A step made of a closure that returns a value and a compensation that takes it back.
///
/// Executing again (a redo) runs the closure again and keeps the new value for the next undo.
struct ValueStep<Value: Sendable>: Command {
    let name: String
    let run: @Sendable () async throws -> Value
    let compensate: @Sendable (Value) async throws -> Void
    let value = LockedValue<Value?>(nil)

    func perform() async throws -> Value {
        let result = try await run()
        value.withLock { $0 = result }
        return result
    }

    func execute() async throws {
        _ = try await perform()
    }

    func undo() async throws {
        guard let result = value.withLock({ $0 }) else { return }
        try await compensate(result)
        value.withLock { $0 = nil }
    }
}
