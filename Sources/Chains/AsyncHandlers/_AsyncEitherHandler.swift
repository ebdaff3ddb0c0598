/// One of two asynchronous handlers (an `if`/`else` in an ``AsyncHandlerBuilder`` block).
@_documentation(visibility: internal)
public enum _AsyncEitherHandler<First: AsyncHandler, Second: AsyncHandler>: AsyncHandler
where First.Input == Second.Input, First.Output == Second.Output {
    public typealias Input = First.Input
    public typealias Output = First.Output

    case first(First)
    case second(Second)

    @inlinable
    public func handle(_ input: Input, next: (Input) async throws -> Output) async throws -> Output {
        switch self {
        case .first(let handler): try await handler.handle(input, next: next)
        case .second(let handler): try await handler.handle(input, next: next)
        }
    }
}
