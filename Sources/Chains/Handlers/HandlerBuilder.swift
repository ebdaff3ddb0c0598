/// Builds a chain of handlers from a list, folding it into nested generic types.
///
/// Every handler in the block takes `Input` and answers `Output`; the block becomes one
/// handler that runs them in order. The result is a concrete type such as
/// `_ChainedHandler2<_ChainedHandler2<A, B>, C>`, so that the compiler specialises and inlines
/// the whole chain: no existential, no allocation on the way through. `if`, `if`/`else` and
/// `for` work as in any builder.
///
/// ```swift
/// let phone = Pipeline {
///     NonEmptyValidator()
///     LengthValidator(exactly: 11)
///     if strict { AllowedCharactersValidator.digits }
///     MaskFormatter("+X (XXX) XXX XX-XX")
/// }
/// ```
@resultBuilder
public enum HandlerBuilder<Input, Output> {
    /// Accepts a handler of the chain's types.
    @inlinable
    public static func buildExpression<H: Handler>(_ handler: H) -> H where H.Input == Input, H.Output == Output {
        handler
    }

    /// The first handler of a block.
    @inlinable
    public static func buildPartialBlock<H: Handler>(first: H) -> H {
        first
    }

    /// Appends a handler to the chain built so far.
    @inlinable
    public static func buildPartialBlock<H0: Handler, H1: Handler>(
        accumulated: H0, next: H1
    ) -> _ChainedHandler2<H0, H1> where H0.Input == H1.Input, H0.Output == H1.Output {
        _ChainedHandler2(accumulated, next)
    }

    /// An `if` without `else`: when absent, the step passes its input on.
    @inlinable
    public static func buildOptional<H: Handler>(_ handler: H?) -> _OptionalHandler<H> {
        _OptionalHandler(handler)
    }

    /// The `if` branch of an `if`/`else`.
    @inlinable
    public static func buildEither<First: Handler, Second: Handler>(
        first: First
    ) -> _EitherHandler<First, Second> where First.Input == Second.Input, First.Output == Second.Output {
        .first(first)
    }

    /// The `else` branch of an `if`/`else`.
    @inlinable
    public static func buildEither<First: Handler, Second: Handler>(
        second: Second
    ) -> _EitherHandler<First, Second> where First.Input == Second.Input, First.Output == Second.Output {
        .second(second)
    }

    /// A `for` loop: the handlers it makes run in order.
    @inlinable
    public static func buildArray<H: Handler>(_ handlers: [H]) -> _HandlerArray<H> {
        _HandlerArray(handlers)
    }
}
