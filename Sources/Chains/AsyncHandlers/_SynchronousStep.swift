/// A synchronous pipeline step in an asynchronous chain: what comes out of it is passed on.
///
/// ``AsyncHandlerBuilder`` wraps a ``Handler`` whose input and output are the chain's value in
/// it, so that validators and formatters can sit among asynchronous handlers.
@_documentation(visibility: internal)
public struct _SynchronousStep<Wrapped: Handler>: AsyncHandler where Wrapped.Input == Wrapped.Output {
    public typealias Input = Wrapped.Input
    public typealias Output = Wrapped.Output

    @usableFromInline
    let wrapped: Wrapped

    @inlinable
    init(_ wrapped: Wrapped) {
        self.wrapped = wrapped
    }

    @inlinable
    public func handle(_ input: Input, next: (Input) async throws -> Output) async throws -> Output {
        try await next(wrapped.run(input))
    }
}
