/// Builds a chain of asynchronous handlers from a list, folding it into nested generic types.
///
/// The asynchronous twin of ``HandlerBuilder``: every handler in the block takes `Input` and
/// answers `Output`, and the block becomes one handler of a concrete type such as
/// `_AsyncChainedHandler2<_AsyncChainedHandler2<A, B>, C>` that the compiler specialises and
/// inlines. `if`, `if`/`else` and `for` work as in any builder. In a block whose input and
/// output are one type, a synchronous ``Handler`` of that type is a step too (its output is
/// passed on), so validators sit among asynchronous handlers.
///
/// ```swift
/// let checkout = AsyncPipeline(of: Order.self) {
///     ReserveStock(inventory)
///     if order.needsPayment { Charge(bank) }
///     Confirm(mail)
/// }
/// ```
@resultBuilder
public enum AsyncHandlerBuilder<Input, Output> {
    /// Accepts an asynchronous handler of the chain's types.
    @inlinable
    public static func buildExpression<H: AsyncHandler>(_ handler: H) -> H
    where H.Input == Input, H.Output == Output {
        handler
    }

    /// Accepts a synchronous handler of the chain's value, as a step whose output is passed on.
    @inlinable
    public static func buildExpression<H: Handler>(_ handler: H) -> _SynchronousStep<H>
    where H.Input == Input, H.Output == Input, Input == Output {
        _SynchronousStep(handler)
    }

    /// The first handler of a block.
    @inlinable
    public static func buildPartialBlock<H: AsyncHandler>(first: H) -> H {
        first
    }

    /// Appends a handler to the chain built so far.
    @inlinable
    public static func buildPartialBlock<H0: AsyncHandler, H1: AsyncHandler>(
        accumulated: H0, next: H1
    ) -> _AsyncChainedHandler2<H0, H1> where H0.Input == H1.Input, H0.Output == H1.Output {
        _AsyncChainedHandler2(accumulated, next)
    }

    /// An `if` without `else`: when absent, the step passes its input on.
    @inlinable
    public static func buildOptional<H: AsyncHandler>(_ handler: H?) -> _AsyncOptionalHandler<H> {
        _AsyncOptionalHandler(handler)
    }

    /// The `if` branch of an `if`/`else`.
    @inlinable
    public static func buildEither<First: AsyncHandler, Second: AsyncHandler>(
        first: First
    ) -> _AsyncEitherHandler<First, Second> where First.Input == Second.Input, First.Output == Second.Output {
        .first(first)
    }

    /// The `else` branch of an `if`/`else`.
    @inlinable
    public static func buildEither<First: AsyncHandler, Second: AsyncHandler>(
        second: Second
    ) -> _AsyncEitherHandler<First, Second> where First.Input == Second.Input, First.Output == Second.Output {
        .second(second)
    }

    /// A `for` loop: the handlers it makes run in order.
    @inlinable
    public static func buildArray<H: AsyncHandler>(_ handlers: [H]) -> _AsyncHandlerArray<H> {
        _AsyncHandlerArray(handlers)
    }
}
