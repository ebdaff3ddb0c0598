/// An asynchronous handler that may be absent (an `if` without `else` in an
/// ``AsyncHandlerBuilder`` block); when absent it passes its input on.
@_documentation(visibility: internal)
public struct _AsyncOptionalHandler<Wrapped: AsyncHandler>: AsyncHandler {
    public typealias Input = Wrapped.Input
    public typealias Output = Wrapped.Output

    @usableFromInline
    let wrapped: Wrapped?

    @inlinable
    init(_ wrapped: Wrapped?) {
        self.wrapped = wrapped
    }

    @inlinable
    public func handle(_ input: Input, next: (Input) async throws -> Output) async throws -> Output {
        guard let wrapped else { return try await next(input) }
        return try await wrapped.handle(input, next: next)
    }
}
