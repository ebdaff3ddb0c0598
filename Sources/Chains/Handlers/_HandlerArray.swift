/// Handlers of one type run in order (a `for` loop in a ``HandlerBuilder`` block).
@_documentation(visibility: internal)
public struct _HandlerArray<Element: Handler>: Handler {
    public typealias Input = Element.Input
    public typealias Output = Element.Output

    @usableFromInline
    let handlers: [Element]

    @inlinable
    init(_ handlers: [Element]) {
        self.handlers = handlers
    }

    @inlinable
    public func handle(_ input: Input, next: (Input) throws -> Output) throws -> Output {
        try handle(input, from: handlers.startIndex, next: next)
    }

    @inlinable
    func handle(_ input: Input, from index: Int, next: (Input) throws -> Output) throws -> Output {
        guard index < handlers.endIndex else { return try next(input) }
        return try handlers[index].handle(input) { try handle($0, from: index + 1, next: next) }
    }
}
