extension _HandlerArray: AsyncHandler where Element: AsyncHandler {
    @inlinable
    public func handle(
        _ input: Element.Input, next: (Element.Input) async throws -> Element.Output
    ) async throws -> Element.Output {
        try await handle(input, from: handlers.startIndex, next: next)
    }

    @inlinable
    func handle(
        _ input: Element.Input, from index: Int, next: (Element.Input) async throws -> Element.Output
    ) async throws -> Element.Output {
        guard index < handlers.endIndex else { return try await next(input) }
        return try await handlers[index].handle(input) { try await handle($0, from: index + 1, next: next) }
    }
}
