extension _OptionalHandler: AsyncHandler where Wrapped: AsyncHandler {
    @inlinable
    public func handle(
        _ input: Wrapped.Input, next: (Wrapped.Input) async throws -> Wrapped.Output
    ) async throws -> Wrapped.Output {
        guard let wrapped else { return try await next(input) }
        return try await wrapped.handle(input, next: next)
    }
}
