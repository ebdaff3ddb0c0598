#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension WorkflowContext {
    /// Waits durably until the calendar time `deadline`, as ``sleep(for:)`` waits for a
    /// duration: the deadline itself is written down at the run's next position, the worker
    /// lets the run go, and a worker — this one or any other, after a restart — takes it up
    /// again once the journal's clock has passed the deadline, never before. A deadline already
    /// passed goes straight on (and is written down all the same, so that every attempt at the
    /// run asks for the same positions).
    ///
    /// ```swift
    /// try await context.sleep(until: order.renewsAt)  // a date in the input, or from a step
    /// try await context.step("renew") { _ in try await billing.renew(order) }
    /// ```
    ///
    /// Take `deadline` from the input or from a step, never from `Date()` in the function: a
    /// run taken up again must ask for the deadline it recorded.
    ///
    /// - Throws: ``WorkflowError/nondeterministic(key:position:recorded:requested:)`` when the
    ///   journal recorded something else at this position; ``WorkflowError/undecodable(key:reason:)``
    ///   when the deadline does not encode (a date that is not finite).
    public func sleep(until deadline: Date) async throws {
        let position = try next()
        let name = WorkflowRecord.sleepUntilName
        if let record = recorded[position] {
            try check(record, kind: WorkflowRecord.sleepKind, name: name, at: position)
            let recordedDeadline: Date
            do {
                recordedDeadline = try StepOutput.decode(Date.self, from: record.output ?? [], key: record.id)
            } catch {
                throw stop(
                    WorkflowError.undecodable(key: key, reason: "the deadline at position \(position): \(error)"))
            }
            try wait(until: recordedDeadline)
            return
        }
        let output: [UInt8]
        do {
            output = try StepOutput.encode(deadline, key: key)
        } catch {
            throw stop(WorkflowError.undecodable(key: key, reason: "the deadline \(deadline): \(error)"))
        }
        let entry = entry(position, kind: WorkflowRecord.sleepKind, name: name)
        let changes = changes(with: .settle(entry, as: .done(output: output)))
        try await journaled { try await journal.settle(changes, lease: lease) }
        try wait(until: deadline)
    }

    /// Goes on when the journal's time at the claim passed `deadline`; otherwise makes the run
    /// wait until then. The release is later than the claim, so the run falls due at the
    /// deadline or after, never before.
    private func wait(until deadline: Date) throws {
        if deadline <= claimedAt { return }
        throw suspend(claimedAt.duration(to: deadline))
    }
}
