/// One of two handlers (an `if`/`else` in a ``HandlerBuilder`` block).
@_documentation(visibility: internal)
public enum _EitherHandler<First: Handler, Second: Handler>: Handler
where First.Input == Second.Input, First.Output == Second.Output {
    public typealias Input = First.Input
    public typealias Output = First.Output

    case first(First)
    case second(Second)

    @inlinable
    public func handle(_ input: Input, next: (Input) throws -> Output) throws -> Output {
        switch self {
        case .first(let handler): try handler.handle(input, next: next)
        case .second(let handler): try handler.handle(input, next: next)
        }
    }
}
