import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Traces across the queue: the enqueuing caller's trace context reaches the worker's claim.
extension CommandJournalConformance {
    static func queuedRecordsKeepTheirCallersTraceContext(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "enqueue(_:queue:after:traceContext:) keeps the caller's trace context for the claim"
        let context = callersTraceContext
        _ = try await journal.enqueue(entry("traced"), queue: "q", after: .zero, traceContext: context)
        _ = try await journal.enqueue(
            entry("traced"), queue: "q", after: .zero, traceContext: ["traceparent": "another request's"])
        _ = try await journal.enqueue(entry("untraced"), queue: "q", after: .zero, traceContext: nil)
        let claimed = try await journal.claim(10, from: "q", concurrency: nil, lease: lease).records
        try expectTraceContexts(of: claimed, ["traced: \(context)", "untraced: [:]"], check)
        for record in claimed {
            try await journal.settle(record.id, as: .done(output: nil), lease: lease.fenced(by: record))
        }
        await clock.advance(by: .seconds(60))
        let pruned = try await journal.prune(settledBefore: clock.currentDate)
        try expect(pruned == 2, check, "pruning deleted \(pruned) records, not the 2 settled")
        _ = try await journal.enqueue(entry("traced"), queue: "q", after: .zero, traceContext: nil)
        let again = try await journal.claim(1, from: "q", concurrency: nil, lease: lease).records
        try expect(
            again.map(\.id) == ["traced"] && again.first?.traceContext == nil, check,
            "a key enqueued again after pruning carried the pruned record's context: \(again)")
    }

    static func aClaimUnderAPartitionLimitKeepsTheTraceContext(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a claim under a limit per partition reads each record's trace context too"
        let context = callersTraceContext
        _ = try await journal.enqueue(
            entry("a1"), queue: "q", after: .zero, priority: 0, partition: "a", traceContext: context)
        _ = try await journal.enqueue(
            entry("a2"), queue: "q", after: .zero, priority: 0, partition: "a", traceContext: nil)
        _ = try await journal.enqueue(
            entry("none"), queue: "q", after: .zero, priority: 0, partition: nil, traceContext: nil)
        let claimed = try await journal.claim(10, from: "q", concurrency: nil, perPartition: 1, lease: lease).records
        try expectTraceContexts(of: claimed, ["a1: \(context)", "none: [:]"], check)
    }

    static func bulkEnqueuedRecordsKeepTheirCallersTraceContext(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "enqueue(contentsOf:queue:traceContext:) keeps the caller's context for each new record"
        let earlier = ["traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"]
        let context = callersTraceContext
        _ = try await journal.enqueue(entry("before"), queue: "q", after: .zero, traceContext: earlier)
        let answers = try await journal.enqueue(
            contentsOf: [QueuedJob(entry("new")), QueuedJob(entry("before"))], queue: "q", traceContext: context)
        let answered = answers.map { answer in (try? answer.get()).map { "\($0.id): \($0.traceContext ?? [:])" } }
        try expect(answered.first == "new: \(context)", check, "the enqueue answered \(answered)")
        let claimed = try await journal.claim(10, from: "q", concurrency: nil, lease: lease).records
        try expectTraceContexts(of: claimed, ["before: \(earlier)", "new: \(context)"], check)
    }

    /// The trace context of the checks' enqueuing caller.
    static let callersTraceContext = ["traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"]

    /// Fails `check` unless the records `claimed` carry the trace contexts `expected`, each
    /// "<key>: <context>", in order.
    static func expectTraceContexts(
        of claimed: [CommandJournalRecord], _ expected: [String], _ check: String
    ) throws {
        let contexts = claimed.map { "\($0.id): \($0.traceContext ?? [:])" }
        try expect(contexts == expected, check, "the claim read the trace contexts \(contexts)")
    }
}
