import BehaviorKitSync

extension CompensationPolicy {
    /// Runs `work` on a task of its own, which the caller's cancellation does not reach, and
    /// returns its value; or `nil` once the policy's ``deadline`` (from now, on the policy's
    /// clock) passes first: `work` is then cancelled and not waited for.
    func withinDeadline<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T? {
        let end = deadline.map { clock.now + $0 }
        let result = await DeadlineRace.run(until: end, on: clock) { () async -> Result<T, any Error> in
            do { return .success(try await work()) } catch { return .failure(error) }
        }
        return try result?.get()
    }
}
