extension _ChainedHandler2: AsyncHandler
where H0: AsyncHandler, H1: AsyncHandler, H0.Input == H1.Input, H0.Output == H1.Output {
    @inlinable
    public func handle(_ input: H0.Input, next: (H0.Input) async throws -> H0.Output) async throws -> H0.Output {
        try await first.handle(input) { try await second.handle($0, next: next) }
    }
}
