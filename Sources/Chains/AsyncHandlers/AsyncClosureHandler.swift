/// An asynchronous handler made of a closure, for a one-off middleware without a type of its own.
///
/// ```swift
/// let timing = AsyncClosureHandler<Request, Response> { request, next in
///     let start = ContinuousClock.now
///     var response = try await next(request)
///     response.headers["Server-Timing"] = "total;dur=\(ContinuousClock.now - start)"
///     return response
/// }
/// ```
public struct AsyncClosureHandler<Input, Output>: AsyncHandler {
    @usableFromInline
    let body: @Sendable (Input, (Input) async throws -> Output) async throws -> Output

    /// Creates a handler that runs `body` with the input and the rest of the chain.
    public init(_ body: @escaping @Sendable (Input, (Input) async throws -> Output) async throws -> Output) {
        self.body = body
    }

    /// Calls the closure with `input` and the rest of the chain.
    @inlinable
    public func handle(_ input: Input, next: (Input) async throws -> Output) async throws -> Output {
        try await body(input, next)
    }
}
