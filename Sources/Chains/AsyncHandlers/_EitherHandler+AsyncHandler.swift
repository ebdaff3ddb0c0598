extension _EitherHandler: AsyncHandler
where First: AsyncHandler, Second: AsyncHandler, First.Input == Second.Input, First.Output == Second.Output {
    @inlinable
    public func handle(
        _ input: First.Input, next: (First.Input) async throws -> First.Output
    ) async throws -> First.Output {
        switch self {
        case .first(let handler): try await handler.handle(input, next: next)
        case .second(let handler): try await handler.handle(input, next: next)
        }
    }
}
