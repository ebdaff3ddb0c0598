#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A workflow's run as an operator reads it (``CommandJournalManagement/workflowRun(_:)``): its
/// record, what its code did at each position (steps with their outputs and errors, sleeps
/// with their deadlines, receives, waits for children), the child runs it started, the
/// messages sent to it that wait to be received, and the compensations it ran as it rolled back.
///
/// ```swift
/// if let run = try await journal.workflowRun("order-42") {
///     for position in run.positions { print(position.position, position.kind, position.name, position.record.status) }
/// }
/// ```
public struct WorkflowRunDetails: Sendable, Hashable {
    /// The run's record: its status, output or error, lease or due time.
    public var record: CommandJournalRecord
    /// The name of its workflow.
    public var workflow: String
    /// Its input, as the journal keeps it (JSON).
    public var input: [UInt8]
    /// The run that started it as a child, if one did.
    public var parent: String?
    /// What its code did, in order.
    public var positions: [WorkflowRunPosition]
    /// The child runs it started, as they are now (a child not written yet is left out).
    public var children: [CommandJournalRecord]
    /// The messages sent to it that no receive has consumed yet, oldest first.
    public var messagesWaiting: [CommandJournalRecord]
    /// The canceller's reason, when the run was cancelled (settled so, or about to be).
    public var cancellation: String?
    /// Why the run rolls back (or did), once its rollback began: the workflow's error, or the
    /// cancellation's reason; `nil` for a run that did not roll back.
    public var rollbackCause: String? = nil
    /// The compensations its rollback ran, in the order they ran (the newest step first):
    /// each compensated, or failed with its error.
    public var compensations: [WorkflowRunCompensation] = []

    /// What the run does now: `"done"`, `"failed"` or `"compensated"` once it settled;
    /// `"compensating"` once its rollback began; `"running"` while a worker or its caller holds
    /// it; else what its last position waits for — `"sleeping"`, `"waiting for a message"`,
    /// `"waiting for a child"` — or `"due"`.
    public var state: String {
        guard record.status == .pending else { return record.status.rawValue }
        if rollbackCause != nil { return "compensating" }
        if record.owner != nil { return "running" }
        switch (positions.last?.kind, positions.last?.record.status) {
        case (.sleep?, _): return "sleeping"
        case (.receive?, .pending?): return "waiting for a message"
        // A wait for a child's result is written once the child settled.
        case (.start?, _) where children.contains(where: { $0.status == .pending }): return "waiting for a child"
        default: return "due"
        }
    }
}

/// A compensation a workflow's run ran as it rolled back
/// (`WorkflowContext.step(_:retry:_:compensate:)`).
public struct WorkflowRunCompensation: Sendable, Hashable {
    /// The position of the step it undid.
    public var position: Int
    /// The step's name.
    public var name: String
    /// Its record: compensated, or failed with the compensation's error, and when.
    public var record: CommandJournalRecord
}

/// One position of a workflow's run: a step, a sleep, a receive, a patch, a published event,
/// a child's start, or a wait for a child's result.
public struct WorkflowRunPosition: Sendable, Hashable {
    /// What the code asked for there.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A step (`WorkflowContext.step(_:retry:_:)`): its record's output is the step's.
        case step
        /// ``WorkflowContext/sleep(for:)`` or ``WorkflowContext/sleep(until:)``.
        case sleep
        /// ``WorkflowContext/receive(_:topic:timeout:)``: pending while it waits.
        case receive
        /// ``WorkflowContext/patched(_:)``.
        case patch
        /// ``WorkflowContext/publish(_:as:)``.
        case publish
        /// ``WorkflowContext/start(_:key:input:)``: `name` is the child's key.
        case start
        /// A child's result, written once the child settled: `name` is the child's key.
        case join
        /// A record of a kind this version does not know.
        case other
    }

    /// The position, from 0.
    public var position: Int
    /// What the code asked for.
    public var kind: Kind
    /// The step's name, the topic, the patch's id, the event's name or the child's key.
    public var name: String
    /// The position's record: its status, output (a step's value, as the journal keeps it) or
    /// error, and when it was written.
    public var record: CommandJournalRecord
    /// When a sleep ends.
    public var wakesAt: Date?
}

extension CommandJournalManagement {
    /// The kind of a workflow run's record, to filter ``CommandJournal/records(matching:after:limit:)`` by.
    public static var workflowRunKind: String { WorkflowRecord.runKind }

    /// One page of the workflow runs passing `filter` (its `kind` and `rootsOnly` set to a
    /// run's), in sequence order.
    public func workflowRuns(
        matching filter: CommandJournalFilter = CommandJournalFilter(), after cursor: Int64? = nil, limit: Int = 100
    ) async throws -> CommandJournalPage {
        var runs = filter
        runs.kind = WorkflowRecord.runKind
        runs.rootsOnly = true
        return try await records(matching: runs, after: cursor, limit: limit)
    }

    /// The workflow run `key` in full; `nil` when no record has the key.
    ///
    /// - Throws: ``WorkflowError/invalidKey(key:reason:)`` when the record is not a workflow's
    ///   run; the journal's error.
    public func workflowRun(_ key: String) async throws -> WorkflowRunDetails? {
        guard let record = try await record(forKey: key) else { return nil }
        guard record.entry.kind == WorkflowRecord.runKind, let plan = WorkflowPlan.of(record) else {
            throw WorkflowError.invalidKey(
                key: key, reason: "it is a '\(record.entry.kind)' record, not a workflow's run")
        }
        let children = try await records(parentKey: key)
        let positions = WorkflowRecord.children(children, of: key).sorted { $0.key < $1.key }.map { position, child in
            WorkflowRunPosition(position, child)
        }
        var started: [CommandJournalRecord] = []
        for position in positions where position.kind == .start {
            if let child = try await self.record(forKey: position.name) { started.append(child) }
        }
        let waiting = try await records(
            matching: CommandJournalFilter(
                statuses: [.pending], kind: WorkflowRecord.messageKind, keyPrefix: "\(key)/message/"),
            after: nil, limit: 100
        ).records
        let mark = children.first { $0.entry.kind == CommandJournalCancellation.kind }
        let cancellation = CommandJournalCancellation.reason(of: mark?.failureReason ?? record.failureReason)
        let compensations = WorkflowRecord.compensations(children, of: key).sorted { $0.key > $1.key }.map {
            WorkflowRunCompensation(
                position: $0.key, name: String(decoding: $0.value.entry.payload, as: UTF8.self), record: $0.value)
        }
        return WorkflowRunDetails(
            record: record, workflow: plan.name, input: plan.input, parent: plan.parent, positions: positions,
            children: started, messagesWaiting: waiting, cancellation: cancellation,
            rollbackCause: children.first { $0.entry.kind == WorkflowRecord.rollbackKind }?.failureReason,
            compensations: compensations)
    }
}

extension CommandJournalRecord {
    /// The name of the workflow whose run this record is; `nil` for another record.
    public var workflowName: String? {
        guard entry.kind == WorkflowRecord.runKind else { return nil }
        return WorkflowPlan.of(self)?.name
    }
}

extension WorkflowRunPosition {
    /// The position `position` of a run, recorded as `record`.
    init(_ position: Int, _ record: CommandJournalRecord) {
        let name = String(decoding: record.entry.payload, as: UTF8.self)
        let kind: Kind =
            switch record.entry.kind {
            case WorkflowRecord.stepKind: .step
            case WorkflowRecord.sleepKind: .sleep
            case WorkflowRecord.receiveKind: .receive
            case WorkflowRecord.patchKind: .patch
            case WorkflowRecord.eventKind: .publish
            case WorkflowRecord.startKind: .start
            case WorkflowRecord.joinKind: .join
            default: .other
            }
        var wakesAt: Date?
        if kind == .sleep {
            if name == WorkflowRecord.sleepUntilName {
                wakesAt = try? StepOutput.decode(Date.self, from: record.output ?? [], key: record.id)
            } else if let milliseconds = try? StepOutput.decodeIfPresent(
                Int64.self, from: record.output, key: record.id)
            {
                wakesAt = record.createdAt.adding(.milliseconds(milliseconds))
            }
        }
        self.init(position: position, kind: kind, name: name, record: record, wakesAt: wakesAt)
    }
}
