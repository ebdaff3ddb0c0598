/// Two handlers run one after the other: the plumbing ``HandlerBuilder`` and `|>` fold into.
@_documentation(visibility: internal)
public struct _ChainedHandler2<H0: Handler, H1: Handler>: Handler
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
    public func handle(_ input: Input, next: (Input) throws -> Output) throws -> Output {
        try first.handle(input) { try second.handle($0, next: next) }
    }
}
