/// A handler that may be absent (an `if` without `else` in a ``HandlerBuilder`` or
/// ``AsyncHandlerBuilder`` block); when absent it passes its input on. A ``Handler`` when the
/// wrapped one is; an ``AsyncHandler`` when it is (see `_AsyncOptionalHandler`).
@_documentation(visibility: internal)
public struct _OptionalHandler<Wrapped: Sendable>: Sendable {
    @usableFromInline
    let wrapped: Wrapped?

    @inlinable
    init(_ wrapped: Wrapped?) {
        self.wrapped = wrapped
    }
}

extension _OptionalHandler: Handler where Wrapped: Handler {
    @inlinable
    public func handle(_ input: Wrapped.Input, next: (Wrapped.Input) throws -> Wrapped.Output) throws -> Wrapped.Output
    {
        guard let wrapped else { return try next(input) }
        return try wrapped.handle(input, next: next)
    }
}
