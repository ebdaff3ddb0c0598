/// Handlers of one type run in order (a `for` loop in a ``HandlerBuilder`` or
/// ``AsyncHandlerBuilder`` block). A ``Handler`` when its elements are; an ``AsyncHandler`` when
/// they are (see `_AsyncHandlerArray`).
@_documentation(visibility: internal)
public struct _HandlerArray<Element: Sendable>: Sendable {
    @usableFromInline
    let handlers: [Element]

    @inlinable
    init(_ handlers: [Element]) {
        self.handlers = handlers
    }
}

extension _HandlerArray: Handler where Element: Handler {
    @inlinable
    public func handle(_ input: Element.Input, next: (Element.Input) throws -> Element.Output) throws -> Element.Output
    {
        try handle(input, from: handlers.startIndex, next: next)
    }

    @inlinable
    func handle(
        _ input: Element.Input, from index: Int, next: (Element.Input) throws -> Element.Output
    ) throws -> Element.Output {
        guard index < handlers.endIndex else { return try next(input) }
        return try handlers[index].handle(input) { try handle($0, from: index + 1, next: next) }
    }
}
