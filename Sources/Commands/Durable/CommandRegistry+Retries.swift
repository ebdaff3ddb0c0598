extension CommandRegistry {
    /// Sets how often the commands (and steps) of `kind` are tried before they fail: a
    /// ``QueueWorker`` releases a failed record to be claimed again after the policy's backoff,
    /// and a transaction tries a failed step again. Replaces a policy set before.
    ///
    /// ```swift
    /// registry.register(Charge.self)
    /// registry.setRetryPolicy(RetryPolicy(maxAttempts: 5, initialDelay: .seconds(2)), forKind: Charge.journalKind)
    /// ```
    public mutating func setRetryPolicy(_ policy: RetryPolicy, forKind kind: String) {
        retryPolicies[kind] = policy
    }

    /// The policy set for `kind`, or `nil` (the worker's default then applies).
    public func retryPolicy(forKind kind: String) -> RetryPolicy? {
        retryPolicies[kind]
    }
}
