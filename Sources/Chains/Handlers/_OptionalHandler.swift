/// A handler that may be absent (an `if` without `else` in a ``HandlerBuilder`` block); when
/// absent it passes its input on.
@_documentation(visibility: internal)
public struct _OptionalHandler<Wrapped: Handler>: Handler {
    public typealias Input = Wrapped.Input
    public typealias Output = Wrapped.Output

    @usableFromInline
    let wrapped: Wrapped?

    @inlinable
    init(_ wrapped: Wrapped?) {
        self.wrapped = wrapped
    }

    @inlinable
    public func handle(_ input: Input, next: (Input) throws -> Output) throws -> Output {
        guard let wrapped else { return try next(input) }
        return try wrapped.handle(input, next: next)
    }
}
