/// Asynchronous handlers of one type run in order (a `for` loop in an ``AsyncHandlerBuilder``
/// block).
@_documentation(visibility: internal)
public struct _AsyncHandlerArray<Element: AsyncHandler>: AsyncHandler {
    public typealias Input = Element.Input
    public typealias Output = Element.Output

    @usableFromInline
    let handlers: [Element]

    @inlinable
    init(_ handlers: [Element]) {
        self.handlers = handlers
    }

    @inlinable
    public func handle(_ input: Input, next: (Input) async throws -> Output) async throws -> Output {
        try await handle(input, from: handlers.startIndex, next: next)
    }

    @inlinable
    func handle(_ input: Input, from index: Int, next: (Input) async throws -> Output) async throws -> Output {
        guard index < handlers.endIndex else { return try await next(input) }
        return try await handlers[index].handle(input) { try await handle($0, from: index + 1, next: next) }
    }
}
