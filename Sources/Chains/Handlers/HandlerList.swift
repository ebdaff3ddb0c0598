/// A chain assembled at run time: an array of `any Handler`, run in order.
///
/// Use it when the handlers come from configuration, plug-ins or user choices. Each step is a
/// dynamic call through the existential; for a chain known when compiling, ``HandlerBuilder``
/// is faster.
///
/// ```swift
/// var checks = HandlerList<String, String>()
/// checks.append(NonEmptyValidator())
/// if settings.requireDigits { checks.append(AllowedCharactersValidator.digits) }
/// try checks.run("12345")
/// ```
public struct HandlerList<Input, Output>: Handler {
    /// The handlers, in the order they run.
    public var handlers: [any Handler<Input, Output>]

    /// Creates a chain of `handlers`, run in order.
    public init(_ handlers: [any Handler<Input, Output>] = []) {
        self.handlers = handlers
    }

    /// Adds `handler` at the end of the chain.
    public mutating func append(_ handler: some Handler<Input, Output>) {
        handlers.append(handler)
    }

    /// Runs the handlers in order, then `next`.
    ///
    /// - Complexity: O(*n*) dynamic calls, where *n* is the number of handlers.
    @inlinable
    public func handle(_ input: Input, next: (Input) throws -> Output) throws -> Output {
        try handle(input, from: handlers.startIndex, next: next)
    }

    @inlinable
    func handle(_ input: Input, from index: Int, next: (Input) throws -> Output) throws -> Output {
        guard index < handlers.endIndex else { return try next(input) }
        return try handlers[index].handle(input) { try handle($0, from: index + 1, next: next) }
    }
}
