/// A handler made of a closure, for a one-off step without a type of its own.
///
/// ```swift
/// let trim = ClosureHandler<String, String> { input, next in
///     try next(input.filter { !$0.isWhitespace })
/// }
/// let phone = trim |> LengthValidator(exactly: 11)
/// ```
public struct ClosureHandler<Input, Output>: Handler {
    @usableFromInline
    let body: @Sendable (Input, (Input) throws -> Output) throws -> Output

    /// Creates a handler that runs `body` with the input and the rest of the chain.
    public init(_ body: @escaping @Sendable (Input, (Input) throws -> Output) throws -> Output) {
        self.body = body
    }

    /// Calls the closure with `input` and the rest of the chain.
    @inlinable
    public func handle(_ input: Input, next: (Input) throws -> Output) throws -> Output {
        try body(input, next)
    }
}
