#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension WorkflowContext {
    /// Waits `duration` durably: the deadline is written down at the run's next position (from
    /// the journal's time), the worker lets the run go, and a worker — this one or any other,
    /// after a restart — takes it up again once the deadline has passed, never before. A run
    /// taken up again after the deadline goes straight on.
    ///
    /// ```swift
    /// try await context.sleep(for: .seconds(3_600))  // the process may stop meanwhile
    /// try await context.step("remind") { _ in try await mail.remind(order) }
    /// ```
    ///
    /// - Throws: ``WorkflowError/nondeterministic(key:position:recorded:requested:)`` when the
    ///   journal recorded something else at this position.
    public func sleep(for duration: Duration) async throws {
        let position = try next()
        let name = "sleep"
        if let record = recorded[position] {
            try check(record, kind: WorkflowRecord.sleepKind, name: name, at: position)
            let milliseconds =
                (try? StepOutput.decodeIfPresent(Int64.self, from: record.output, key: record.id))
                ?? duration.journalMilliseconds
            let deadline = record.createdAt.adding(.milliseconds(milliseconds))
            if deadline <= claimedAt { return }
            throw suspend(claimedAt.duration(to: deadline))
        }
        let milliseconds = max(0, duration.journalMilliseconds)
        let output: [UInt8]
        do {
            output = try StepOutput.encode(milliseconds, key: key)
        } catch {
            throw stop(error)
        }
        let entry = entry(position, kind: WorkflowRecord.sleepKind, name: name)
        let changes = changes(with: .settle(entry, as: .done(output: output)))
        try await journaled { try await journal.settle(changes, lease: lease) }
        // The release comes after the record was written: due at the journal's time then plus
        // the duration, which is never before the deadline the record says.
        if milliseconds > 0 { throw suspend(.milliseconds(milliseconds)) }
    }
}
