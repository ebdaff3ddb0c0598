extension AsyncHandler {
    /// Links `next` after this handler: the result runs this handler, then `next`, then the rest.
    ///
    /// ```swift
    /// let middleware = LogRequests(log).link(with: Authenticate(users)).link(with: Compress())
    /// ```
    @inlinable
    public func link<Next: AsyncHandler>(with next: Next) -> _AsyncChainedHandler2<Self, Next>
    where Next.Input == Input, Next.Output == Output {
        _AsyncChainedHandler2(self, next)
    }

    /// Links `rhs` after `lhs`; `a |> b |> c` runs `a`, then `b`, then `c`.
    ///
    /// ```swift
    /// let middleware = LogRequests(log) |> Authenticate(users) |> Compress()
    /// ```
    @inlinable
    public static func |> <Next: AsyncHandler>(lhs: Self, rhs: Next) -> _AsyncChainedHandler2<Self, Next>
    where Next.Input == Input, Next.Output == Output {
        _AsyncChainedHandler2(lhs, rhs)
    }
}
