/// Two asynchronous handlers run one after the other: the plumbing ``AsyncHandlerBuilder`` and
/// `|>` fold into.
@_documentation(visibility: internal)
public struct _AsyncChainedHandler2<H0: AsyncHandler, H1: AsyncHandler>: AsyncHandler
where H0.Input == H1.Input, H0.Output == H1.Output {
    public typealias Input = H0.Input
    public typealias Output = H0.Output

    @usableFromInline
    let first: H0

    @usableFromInline
    let second: H1

    @inlinable
    init(_ first: H0, _ second: H1) {
        self.first = first
        self.second = second
    }

    @inlinable
    public func handle(_ input: Input, next: (Input) async throws -> Output) async throws -> Output {
        try await first.handle(input) { try await second.handle($0, next: next) }
    }
}
