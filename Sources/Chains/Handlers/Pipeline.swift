/// A chain of checks and transformations of one value, built with ``HandlerBuilder``.
///
/// Each step may check the value (and throw, which stops the pipeline), or transform it and
/// pass it on; what comes out of the last step is the pipeline's answer.
///
/// ```swift
/// let phone = Pipeline {
///     NonEmptyValidator()
///     LengthValidator(exactly: 11)
///     MaskFormatter("+X (XXX) XXX XX-XX")
/// }
/// try phone.run("79634480209")   // "+7 (963) 448 02-09"
/// try phone.run("123")           // throws: length: expected 11 characters, got 3 in "123"
/// ```
public struct Pipeline<Value, Chain: Handler>: Handler where Chain.Input == Value, Chain.Output == Value {
    /// The value the pipeline takes.
    public typealias Input = Value
    /// The value the pipeline passes on: of the same type.
    public typealias Output = Value

    /// The composed steps.
    public let chain: Chain

    /// Creates a pipeline of the steps in `steps`, run in order.
    @inlinable
    public init(of type: Value.Type = Value.self, @HandlerBuilder<Value, Value> _ steps: () -> Chain) {
        self.chain = steps()
    }

    /// Creates a pipeline of an already composed chain.
    @inlinable
    public init(_ chain: Chain) {
        self.chain = chain
    }

    /// Runs the pipeline's steps on `input`, in order, and `next` after the last.
    @inlinable
    public func handle(_ input: Value, next: (Value) throws -> Value) throws -> Value {
        try chain.handle(input, next: next)
    }
}
