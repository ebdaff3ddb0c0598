/// A chain of asynchronous checks and transformations of one value, built with
/// ``AsyncHandlerBuilder``: the asynchronous twin of ``Pipeline``.
///
/// ```swift
/// let signUp = AsyncPipeline(of: String.self) {
///     NonEmptyValidator()                         // a synchronous step
///     PatternValidator(/[^@ ]+@[^@ ]+/, describedAs: "an email address")
///     CheckNotTaken(accounts)                     // awaits the accounts service
/// }
/// try await signUp.run("someone@example.com")
/// ```
public struct AsyncPipeline<Value, Chain: AsyncHandler>: AsyncHandler
where Chain.Input == Value, Chain.Output == Value {
    /// The value the pipeline takes.
    public typealias Input = Value
    /// The value the pipeline passes on: of the same type.
    public typealias Output = Value

    /// The composed steps.
    public let chain: Chain

    /// Creates a pipeline of the steps in `steps`, run in order.
    @inlinable
    public init(of type: Value.Type = Value.self, @AsyncHandlerBuilder<Value, Value> _ steps: () -> Chain) {
        self.chain = steps()
    }

    /// Creates a pipeline of an already composed chain.
    @inlinable
    public init(_ chain: Chain) {
        self.chain = chain
    }

    /// Runs the pipeline's steps on `input`, in order, and `next` after the last.
    @inlinable
    public func handle(_ input: Value, next: (Value) async throws -> Value) async throws -> Value {
        try await chain.handle(input, next: next)
    }
}
