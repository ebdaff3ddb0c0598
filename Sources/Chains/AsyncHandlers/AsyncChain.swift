/// A chain of asynchronous handlers from an input to an output of another type, built with
/// ``AsyncHandlerBuilder``: a server's middleware stack, from a request to a response.
///
/// Run it with the end of the chain, the handler that answers when every middleware passed on
/// (a router):
///
/// ```swift
/// let middleware = AsyncChain(from: Request.self, to: Response.self) {
///     LogRequests(log)
///     Authenticate(users)
///     if settings.compresses { Compress() }
/// }
/// let response = try await middleware.handle(request) { request in try await router.respond(to: request) }
/// ```
public struct AsyncChain<Input, Output, Chain: AsyncHandler>: AsyncHandler
where Chain.Input == Input, Chain.Output == Output {
    /// The composed handlers.
    public let chain: Chain

    /// Creates a chain of the handlers in `handlers`, run in order.
    @inlinable
    public init(
        from input: Input.Type = Input.self, to output: Output.Type = Output.self,
        @AsyncHandlerBuilder<Input, Output> _ handlers: () -> Chain
    ) {
        self.chain = handlers()
    }

    /// Creates a chain of an already composed chain.
    @inlinable
    public init(_ chain: Chain) {
        self.chain = chain
    }

    /// Runs the chain's handlers on `input`, in order, and `next` after the last.
    @inlinable
    public func handle(_ input: Input, next: (Input) async throws -> Output) async throws -> Output {
        try await chain.handle(input, next: next)
    }
}
