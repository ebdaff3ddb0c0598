infix operator |> : AdditionPrecedence

extension Handler {
    /// Links `next` after this handler: the result runs this handler, then `next`, then the rest.
    ///
    /// Returns the linked chain, so that calls chain, each handler linked to the next:
    ///
    /// ```swift
    /// let phone = NonEmptyValidator()
    ///     .link(with: LengthValidator(exactly: 11))
    ///     .link(with: MaskFormatter("+X (XXX) XXX XX-XX"))
    /// ```
    @inlinable
    public func link<Next: Handler>(with next: Next) -> _ChainedHandler2<Self, Next>
    where Next.Input == Input, Next.Output == Output {
        _ChainedHandler2(self, next)
    }

    /// Links `rhs` after `lhs`; `a |> b |> c` runs `a`, then `b`, then `c`.
    ///
    /// ```swift
    /// let phone = NonEmptyValidator() |> LengthValidator(exactly: 11) |> MaskFormatter("+X (XXX) XXX XX-XX")
    /// ```
    @inlinable
    public static func |> <Next: Handler>(lhs: Self, rhs: Next) -> _ChainedHandler2<Self, Next>
    where Next.Input == Input, Next.Output == Output {
        _ChainedHandler2(lhs, rhs)
    }
}
