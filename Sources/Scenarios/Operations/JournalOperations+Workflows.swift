public import Commands
import Foundation

/// A workflow's run as `behaviorkit journal workflows show --format json` prints it.
public struct WorkflowRunView: Codable, Sendable, Hashable {
    /// One position of the run: a step, sleep, receive, patch, publish, child's start or result.
    public struct Position: Codable, Sendable, Hashable {
        /// The position, from 0.
        public var position: Int
        /// What the code asked for there: step, sleep, receive, patch, publish, start, join.
        public var kind: String
        /// The step's name, the topic, the patch, the event, or the child's key.
        public var name: String
        /// Its status.
        public var status: String
        /// Its output (a step's value), as text when it is UTF-8.
        public var output: String?
        /// Why it failed.
        public var failureReason: String?
        /// When a sleep ends.
        public var wakesAt: String?
        /// When it was written.
        public var createdAt: String
    }

    /// The run's record.
    public var run: JournalRecordView
    /// Its workflow's name.
    public var workflow: String
    /// What it does now: done, failed, compensated, compensating, running, sleeping, waiting for a
    /// message or a child, due.
    public var state: String
    /// Its input, as text when it is UTF-8.
    public var input: String?
    /// The run that started it, if one did.
    public var parent: String?
    /// What its code did, in order.
    public var positions: [Position]
    /// The child runs it started.
    public var children: [JournalRecordView]
    /// The messages sent to it that wait to be received.
    public var messagesWaiting: [JournalRecordView]
    /// Why it was cancelled, if it was.
    public var cancellation: String?
    /// Why it rolled back, once its rollback began.
    public var rollbackCause: String?
    /// The compensations it ran as it rolled back, in the order they ran: position, step name,
    /// status (compensated or failed) and error.
    public var compensations: [Position]

    /// The view of `details`.
    public init(_ details: WorkflowRunDetails) {
        run = JournalRecordView(details.record)
        workflow = details.workflow
        state = details.state
        input = String(validating: details.input, as: UTF8.self)
        parent = details.parent
        positions = details.positions.map {
            Position(
                position: $0.position, kind: $0.kind.rawValue, name: $0.name, status: $0.record.status.rawValue,
                output: $0.record.output.flatMap { String(validating: $0, as: UTF8.self) },
                failureReason: $0.record.failureReason, wakesAt: $0.wakesAt.map(JournalRecordView.time),
                createdAt: JournalRecordView.time($0.record.createdAt))
        }
        children = details.children.map(JournalRecordView.init)
        messagesWaiting = details.messagesWaiting.map(JournalRecordView.init)
        cancellation = details.cancellation
        rollbackCause = details.rollbackCause
        compensations = details.compensations.map {
            Position(
                position: $0.position, kind: "compensation", name: $0.name, status: $0.record.status.rawValue,
                output: nil, failureReason: $0.record.failureReason, wakesAt: nil,
                createdAt: JournalRecordView.time($0.record.createdAt))
        }
    }
}

extension JournalOperations {
    /// Prints one page of the workflow runs passing `filter`, and how to get the next.
    public static func workflowRuns(
        _ journal: any CommandJournalManagement, _ filter: CommandJournalFilter, after cursor: Int64?, limit: Int,
        format: Format, console: Console
    ) async throws {
        let page = try await journal.workflowRuns(matching: filter, after: cursor, limit: limit)
        try print(
            page, format: format, console: console, lines: JournalText.workflowLines,
            noun: ("workflow run", "workflow runs"))
    }

    /// Prints the workflow run `key` in full.
    ///
    /// - Throws: ``JournalOperationError`` when there is no such key; `WorkflowError` when the
    ///   record is no workflow's run.
    public static func workflowRun(
        _ journal: any CommandJournalManagement, key: String, format: Format, console: Console
    ) async throws {
        guard let details = try await journal.workflowRun(key) else {
            throw JournalOperationError("no journal record has the idempotency key '\(key)'")
        }
        switch format {
        case .json: console.print(try json(WorkflowRunView(details)))
        case .text: for line in JournalText.lines(details) { console.print(line) }
        }
    }

    /// Forks the settled workflow run `key` from `position` into `newKey`, and prints the new run.
    public static func forkWorkflowRun(
        _ journal: any CommandJournalManagement, key: String, from position: Int, as newKey: String, format: Format,
        console: Console
    ) async throws {
        let record = try await journal.forkWorkflowRun(key, from: position, as: newKey)
        let copied = position == 0 ? "nothing copied; " : "positions 0..<\(position) answer from the copy; "
        try printFork(record, of: key, format: format, console: console, copied: copied)
    }

    /// Cancels the workflow run `key` and its unsettled children, and prints what became of them.
    public static func cancelWorkflowRun(
        _ journal: any CommandJournalManagement, key: String, reason: String, format: Format, console: Console
    ) async throws {
        let (run, uncancelled) = try await journal.cancelWorkflowRun(key, reason: reason)
        switch format {
        case .json:
            struct Cancelled: Encodable {
                let run: JournalRecordView
                let uncancelledChildren: [String: String]
            }
            let children = Dictionary(
                uncancelled.map { ($0.key, "\($0.error)") }, uniquingKeysWith: { first, _ in first })
            console.print(try json(Cancelled(run: JournalRecordView(run), uncancelledChildren: children)))
        case .text:
            console.print(
                cancelled(
                    "workflow run '\(key)'", run,
                    running: "; it stops at its next step, and the attempt that takes it next settles it cancelled"))
            for (child, error) in uncancelled { console.print("child '\(child)' was not cancelled: \(error)") }
        }
    }
}

extension JournalText {
    /// One line per workflow run: number, status, key, workflow, holder, attempts and error.
    static func workflowLines(_ records: [CommandJournalRecord]) -> [String] {
        let names = records.map { $0.workflowName ?? "?" }
        let keyWidth = records.map(\.id.count).max() ?? 0
        let nameWidth = names.map(\.count).max() ?? 0
        let numberWidth = "#\(records.last?.sequence ?? 0)".count
        return zip(records, names).map { record, name in
            var line =
                "\(pad("#\(record.sequence)", numberWidth)) \(pad(record.status.rawValue, 11)) "
                + "\(pad(record.id, keyWidth))  \(pad(name, nameWidth))"
            if record.status == .pending, let owner = record.owner { line += "  held by \(owner)" }
            if record.attempts > 1 { line += "  \(record.attempts) attempts" }
            if let reason = record.failureReason { line += "  (\(reason))" }
            return line.trimmingTrailingSpaces()
        }
    }

    /// A workflow run in full: its record, its positions, its children and its messages waiting.
    static func lines(_ run: WorkflowRunDetails) -> [String] {
        let record = run.record
        var lines = [
            "run:         \(record.id)", "workflow:    \(run.workflow)", "state:       \(run.state)",
            "status:      \(record.status.rawValue)" + (record.failureReason.map { " (\($0))" } ?? ""),
        ]
        if let parent = run.parent { lines.append("parent:      \(parent)") }
        if let owner = record.owner, record.status == .pending { lines.append("held by:     \(owner)") }
        lines.append("attempts:    \(record.attempts)")
        lines.append("created:     \(JournalRecordView.time(record.createdAt))")
        lines.append("updated:     \(JournalRecordView.time(record.updatedAt))")
        if let input = String(validating: run.input, as: UTF8.self) { lines.append("input:       \(input)") }
        if let output = record.output.flatMap({ String(validating: $0, as: UTF8.self) }) {
            lines.append("output:      \(output)")
        }
        if let cancellation = run.cancellation {
            lines.append("cancelled:   " + (cancellation.isEmpty ? "yes" : cancellation))
        }
        if !run.positions.isEmpty {
            lines.append("positions:")
            let kindWidth = run.positions.map(\.kind.rawValue.count).max() ?? 0
            let nameWidth = run.positions.map(\.name.count).max() ?? 0
            for position in run.positions {
                var line =
                    "  \(position.position) \(pad(position.kind.rawValue, kindWidth))  \(pad(position.name, nameWidth))"
                    + "  \(pad(position.record.status.rawValue, 7))"
                if let wakesAt = position.wakesAt { line += "  until \(JournalRecordView.time(wakesAt))" }
                if position.kind == .step || position.kind == .receive || position.kind == .join,
                    let output = position.record.output.flatMap({ String(validating: $0, as: UTF8.self) })
                {
                    line += "  \(output)"
                }
                if let reason = position.record.failureReason { line += "  (\(reason))" }
                lines.append(line.trimmingTrailingSpaces())
            }
        }
        if let cause = run.rollbackCause { lines.append("rolled back: \(cause)") }
        if !run.compensations.isEmpty {
            lines.append("compensations:")
            let nameWidth = run.compensations.map(\.name.count).max() ?? 0
            for compensation in run.compensations {
                let line =
                    "  \(compensation.position) \(pad(compensation.name, nameWidth))  "
                    + "\(compensation.record.status.rawValue)"
                    + (compensation.record.failureReason.map { "  (\($0))" } ?? "")
                lines.append(line.trimmingTrailingSpaces())
            }
        }
        if !run.children.isEmpty {
            lines.append("children:")
            lines += workflowLines(run.children).map { "  " + $0 }
        }
        if !run.messagesWaiting.isEmpty {
            lines.append("messages waiting:")
            for message in run.messagesWaiting {
                let payload =
                    String(validating: message.entry.payload, as: UTF8.self) ?? "(\(message.entry.payload.count) bytes)"
                lines.append("  #\(message.sequence) \(message.id)  \(payload)")
            }
        }
        return lines
    }
}
