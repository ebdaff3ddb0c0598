/// One of two handlers (an `if`/`else` in a ``HandlerBuilder`` or ``AsyncHandlerBuilder``
/// block). A ``Handler`` when both are; an ``AsyncHandler`` when both are (see
/// `_AsyncEitherHandler`).
@_documentation(visibility: internal)
public enum _EitherHandler<First: Sendable, Second: Sendable>: Sendable {
    case first(First)
    case second(Second)
}

extension _EitherHandler: Handler
where First: Handler, Second: Handler, First.Input == Second.Input, First.Output == Second.Output {
    @inlinable
    public func handle(_ input: First.Input, next: (First.Input) throws -> First.Output) throws -> First.Output {
        switch self {
        case .first(let handler): try handler.handle(input, next: next)
        case .second(let handler): try handler.handle(input, next: next)
        }
    }
}
