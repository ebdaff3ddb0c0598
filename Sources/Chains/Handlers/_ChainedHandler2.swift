/// Two handlers run one after the other: the plumbing ``HandlerBuilder``, ``AsyncHandlerBuilder``
/// and `|>` fold into. A ``Handler`` when both are; an ``AsyncHandler`` when both are (see
/// `_AsyncChainedHandler2`).
@_documentation(visibility: internal)
public struct _ChainedHandler2<H0: Sendable, H1: Sendable>: Sendable {
    @usableFromInline
    let first: H0

    @usableFromInline
    let second: H1

    @inlinable
    init(_ first: H0, _ second: H1) {
        self.first = first
        self.second = second
    }
}

extension _ChainedHandler2: Handler
where H0: Handler, H1: Handler, H0.Input == H1.Input, H0.Output == H1.Output {
    @inlinable
    public func handle(_ input: H0.Input, next: (H0.Input) throws -> H0.Output) throws -> H0.Output {
        try first.handle(input) { try second.handle($0, next: next) }
    }
}
