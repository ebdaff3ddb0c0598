/// An asynchronous chain assembled at run time: an array of `any AsyncHandler`, run in order.
///
/// Use it when the middleware comes from configuration or plug-ins (as Hummingbird's
/// `MiddlewareGroup`). Each step is a dynamic call through the existential; for a chain known
/// when compiling, ``AsyncHandlerBuilder`` is faster.
///
/// ```swift
/// var middleware = AsyncHandlerList<Request, Response>()
/// middleware.append(LogRequests(log))
/// if settings.requiresLogin { middleware.append(Authenticate(users)) }
/// let response = try await middleware.handle(request) { try await router.respond(to: $0) }
/// ```
public struct AsyncHandlerList<Input, Output>: AsyncHandler {
    /// The handlers, in the order they run.
    public var handlers: [any AsyncHandler<Input, Output>]

    /// Creates a chain of `handlers`, run in order.
    public init(_ handlers: [any AsyncHandler<Input, Output>] = []) {
        self.handlers = handlers
    }

    /// Adds `handler` at the end of the chain.
    public mutating func append(_ handler: some AsyncHandler<Input, Output>) {
        handlers.append(handler)
    }

    /// Runs the handlers in order, then `next`.
    ///
    /// - Complexity: O(*n*) dynamic calls, where *n* is the number of handlers.
    @inlinable
    public func handle(_ input: Input, next: (Input) async throws -> Output) async throws -> Output {
        try await handle(input, from: handlers.startIndex, next: next)
    }

    @inlinable
    func handle(_ input: Input, from index: Int, next: (Input) async throws -> Output) async throws -> Output {
        guard index < handlers.endIndex else { return try await next(input) }
        return try await handlers[index].handle(input) { try await handle($0, from: index + 1, next: next) }
    }
}
