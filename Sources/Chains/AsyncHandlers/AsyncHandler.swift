/// One link of an asynchronous chain of responsibility: a middleware. It receives an input and
/// may answer it, transform it and pass it on, or stop the chain with an error, awaiting what it
/// needs on the way.
///
/// The asynchronous twin of ``Handler``, composed the same two ways: statically with
/// ``AsyncHandlerBuilder`` (an ``AsyncPipeline`` or ``AsyncChain`` block, `|>` or
/// ``link(with:)``), which folds handlers into nested generic types the compiler specialises
/// and inlines, or at run time with ``AsyncHandlerList``, an array of `any AsyncHandler`. Its
/// shape is a server middleware's (as Hummingbird's `MiddlewareProtocol`): a request in, the
/// rest of the chain as `next`, a response out.
///
/// `next` runs on the caller's executor (`nonisolated(nonsending)`, the default for async
/// function types under Swift's `NonisolatedNonsendingByDefault`): the whole chain runs where
/// its caller runs, with no hop between handlers. A module built without that feature spells
/// the parameter `next: nonisolated(nonsending) (Input) async throws -> Output`.
///
/// ```swift
/// struct Authenticate: AsyncHandler {
///     func handle(_ request: Request, next: (Request) async throws -> Response) async throws -> Response {
///         guard let token = request.headers["Authorization"] else { return Response(status: 401) }
///         var request = request
///         request.user = try await users.user(for: token)   // awaits, then passes on
///         return try await next(request)
///     }
/// }
/// ```
public protocol AsyncHandler<Input, Output>: Sendable {
    /// What the handler receives and passes on.
    associatedtype Input
    /// What the chain answers.
    associatedtype Output

    /// Handles `input`: answers it, or passes it (possibly transformed) to `next`, or throws.
    ///
    /// As with ``Handler/handle(_:next:)``, each call of `next` runs the rest of the chain once
    /// more: calling it twice runs every later handler and the chain's end twice (their side
    /// effects too), and the handler answers with whichever result it returns. Nothing stops or
    /// detects a second call; call it again only on purpose, as a retry does.
    ///
    /// - Parameters:
    ///   - input: the value to handle.
    ///   - next: the rest of the chain; call it once to pass the input on, or again to run the
    ///     rest of the chain again.
    func handle(_ input: Input, next: nonisolated(nonsending) (Input) async throws -> Output) async throws -> Output
}

extension AsyncHandler {
    /// Runs the chain with `terminal` as its end: what answers when every handler passed on (a
    /// server's router, say).
    ///
    /// ```swift
    /// let response = try await middleware.handle(request) { request in try await router.respond(to: request) }
    /// ```
    @inlinable
    public func handle(_ input: Input, terminal: (Input) async throws -> Output) async throws -> Output {
        try await handle(input, next: terminal)
    }
}

extension AsyncHandler where Input == Output {
    /// Runs the chain and answers with whatever value comes out of its end.
    ///
    /// ```swift
    /// let normalized = try await checks.run(order)
    /// ```
    @inlinable
    public func run(_ input: Input) async throws -> Output {
        try await handle(input, next: _asyncIdentity)
    }
}

/// The end of an asynchronous pipeline: answers with its input.
@inlinable
@inline(__always)
func _asyncIdentity<Value>(_ value: Value) async -> Value { value }
