// The names ``AsyncHandlerBuilder`` and `|>` give the plumbing they fold into: the same types as
// ``HandlerBuilder``'s, which are asynchronous handlers when what they hold is.

/// Two asynchronous handlers run one after the other: the plumbing ``AsyncHandlerBuilder`` and
/// `|>` fold into.
@_documentation(visibility: internal)
public typealias _AsyncChainedHandler2<H0: AsyncHandler, H1: AsyncHandler> = _ChainedHandler2<H0, H1>
where H0.Input == H1.Input, H0.Output == H1.Output

/// One of two asynchronous handlers (an `if`/`else` in an ``AsyncHandlerBuilder`` block).
@_documentation(visibility: internal)
public typealias _AsyncEitherHandler<First: AsyncHandler, Second: AsyncHandler> = _EitherHandler<First, Second>
where First.Input == Second.Input, First.Output == Second.Output

/// An asynchronous handler that may be absent (an `if` without `else` in an
/// ``AsyncHandlerBuilder`` block); when absent it passes its input on.
@_documentation(visibility: internal)
public typealias _AsyncOptionalHandler<Wrapped: AsyncHandler> = _OptionalHandler<Wrapped>

/// Asynchronous handlers of one type run in order (a `for` loop in an ``AsyncHandlerBuilder``
/// block).
@_documentation(visibility: internal)
public typealias _AsyncHandlerArray<Element: AsyncHandler> = _HandlerArray<Element>
