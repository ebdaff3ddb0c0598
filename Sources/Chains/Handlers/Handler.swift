/// One link of a chain of responsibility: it receives an input and may answer it, transform it
/// and pass it on, or stop the chain with an error.
///
/// A handler gets the rest of the chain as `next`. It answers by returning without calling
/// `next`, passes on by returning `try next(input)` (with the input changed or not), and stops
/// by throwing. Handlers are composed two ways: statically with ``HandlerBuilder`` (or `|>` and
/// ``link(with:)``), which folds them into nested generic types the compiler specialises and
/// inlines, or at run time with ``HandlerList``, an array of `any Handler`.
///
/// ```swift
/// struct RemoveSpaces: Handler {
///     func handle(_ input: String, next: (String) throws -> String) throws -> String {
///         try next(String(input.filter { !$0.isWhitespace }))
///     }
/// }
/// let pipeline = Pipeline { RemoveSpaces(); NonEmptyValidator(); LengthValidator(exactly: 11) }
/// try pipeline.run(" 7 963 448 02 09 ")   // "79634480209"
/// ```
///
/// Handlers are synchronous: a chain of checks and transformations runs at the cost of the same
/// steps written inline. For steps that await (a server's middleware), see ``AsyncHandler``; for
/// lookups through caches, disks and networks, see ``TieredLookup``.
public protocol Handler<Input, Output>: Sendable {
    /// What the handler receives and passes on.
    associatedtype Input
    /// What the chain answers.
    associatedtype Output

    /// Handles `input`: answers it, or passes it (possibly transformed) to `next`, or throws.
    ///
    /// Each call of `next` runs the rest of the chain, every handler after this one and the
    /// chain's end, once more: calling it twice runs them twice (their side effects too), and
    /// the handler answers with whichever result it returns. Nothing stops or detects a second
    /// call, in a composed chain or a ``HandlerList`` alike; call it again only on purpose, as a
    /// retry does:
    ///
    /// ```swift
    /// let retryOnce = ClosureHandler<Request, Response> { request, next in
    ///     do { return try next(request) } catch { return try next(request) }  // the rest runs again
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - input: the value to handle.
    ///   - next: the rest of the chain; call it once to pass the input on, or again to run the
    ///     rest of the chain again.
    func handle(_ input: Input, next: (Input) throws -> Output) throws -> Output
}

extension Handler {
    /// Runs the chain with `terminal` as its end: what answers when every handler passed on.
    ///
    /// ```swift
    /// let answer = try chain.handle(request) { _ in Response.notFound }
    /// ```
    @inlinable
    public func handle(_ input: Input, terminal: (Input) throws -> Output) throws -> Output {
        try handle(input, next: terminal)
    }
}

extension Handler where Input == Output {
    /// Runs the chain and answers with whatever value comes out of its end.
    ///
    /// For a pipeline of validators and formatters this is the checked, formatted value.
    ///
    /// ```swift
    /// let phone = NonEmptyValidator() |> MaskFormatter("+X (XXX) XXX XX-XX")
    /// try phone.run("79634480209")   // "+7 (963) 448 02-09"
    /// ```
    @inlinable
    public func run(_ input: Input) throws -> Output {
        try handle(input, next: _identity)
    }
}

/// The end of a pipeline: answers with its input.
@inlinable
@inline(__always)
func _identity<Value>(_ value: Value) -> Value { value }
