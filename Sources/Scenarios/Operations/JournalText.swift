import Commands
import Foundation

/// The text `behaviorkit journal`'s subcommands print for a person.
enum JournalText {
    /// One line per record: number, status, key, kind, queue, priority (when not the default),
    /// attempts and failure reason.
    static func lines(_ records: [CommandJournalRecord]) -> [String] {
        let keyWidth = records.map(\.id.count).max() ?? 0
        let kindWidth = records.map(\.entry.kind.count).max() ?? 0
        let numberWidth = "#\(records.last?.sequence ?? 0)".count
        return records.map { record in
            var line =
                "\(pad("#\(record.sequence)", numberWidth)) \(pad(record.status.rawValue, 11)) "
                + "\(pad(record.id, keyWidth))  \(pad(record.entry.kind, kindWidth))"
            if let queue = record.queue { line += "  queue \(queue)" }
            if record.priority != CommandQueue.defaultPriority { line += "  priority \(record.priority)" }
            if record.attempts > 1 { line += "  \(record.attempts) attempts" }
            if let reason = record.failureReason { line += "  (\(reason))" }
            return line.trimmingTrailingSpaces()
        }
    }

    /// Each queue's last `minutes`, one line a queue: its records done and failed, its attempts
    /// retried, and its pickups' mean and longest.
    static func lines(_ activity: [QueueActivity], minutes: Int) -> [String] {
        let byQueue = Dictionary(grouping: activity, by: \.queue)
        guard !byQueue.isEmpty else { return ["no record settled in the last \(minutes) min"] }
        let width = byQueue.keys.map(\.count).max() ?? 0
        return byQueue.keys.sorted().map { queue in
            let total =
                QueueActivity.gathered(
                    (byQueue[queue] ?? []).map {
                        QueueActivity(
                            queue: queue, minute: .distantPast, done: $0.done, failed: $0.failed, retried: $0.retried,
                            pickups: $0.pickups, pickupMilliseconds: $0.pickupMilliseconds,
                            longestPickupMilliseconds: $0.longestPickupMilliseconds)
                    }
                ).first ?? QueueActivity(queue: queue, minute: .distantPast)
            var line =
                "\(pad(queue, width))  \(total.done) done, \(total.failed) failed, \(total.retried) retried "
                + "in the last \(minutes) min"
            if total.pickups > 0 {
                let mean = Double(total.pickupMilliseconds) / Double(total.pickups)
                line +=
                    "; pickup mean \(QueueActivity.describe(milliseconds: mean)), longest "
                    + "\(QueueActivity.describe(milliseconds: Double(total.longestPickupMilliseconds))) "
                    + "(\(total.pickups) records)"
            }
            return line
        }
    }

    /// A record in full: its fields, why it compensated, its steps and its attempts.
    static func lines(_ details: CommandJournalRecordDetails) -> [String] {
        let record = details.record
        var lines = [
            "key:         \(record.id)", "kind:        \(record.entry.kind)",
            "status:      \(record.status.rawValue)" + (record.failureReason.map { " (\($0))" } ?? ""),
        ]
        if let parent = record.entry.parentKey { lines.append("parent:      \(parent)") }
        if let queue = record.queue {
            lines.append("queue:       \(queue)")
            lines.append("priority:    \(record.priority)")
        }
        if let owner = record.owner { lines.append("owner:       \(owner)") }
        lines.append("attempts:    \(record.attempts) (fencing token \(record.fencingToken))")
        if let due = details.dueAt { lines.append("due:         \(JournalRecordView.time(due))") }
        if let lease = details.leaseExpiresAt { lines.append("lease until: \(JournalRecordView.time(lease))") }
        lines.append("created:     \(JournalRecordView.time(record.createdAt))")
        lines.append("updated:     \(JournalRecordView.time(record.updatedAt))")
        if let payload = String(validating: record.entry.payload, as: UTF8.self), !payload.isEmpty {
            lines.append("payload:     \(payload)")
        }
        if let output = record.output.flatMap({ String(validating: $0, as: UTF8.self) }) {
            lines.append("output:      \(output)")
        }
        if details.isCancelled { lines.append("cancelled:   yes") }
        if let reason = details.compensationReason { lines.append("compensated because: \(reason)") }
        if !details.children.isEmpty {
            lines.append("steps:")
            lines += Self.lines(details.children).map { "  " + $0 }
        }
        if !details.attempts.isEmpty {
            lines.append("attempt history:")
            for attempt in details.attempts {
                var line = "  \(attempt.number)"
                if let owner = attempt.owner { line += " \(owner)" }
                if let ended = attempt.endedAt { line += " ended \(JournalRecordView.time(ended))" }
                line += attempt.error.map { ": \($0)" } ?? (attempt.endedAt == nil ? "" : ": ok")
                lines.append(line)
            }
        }
        return lines
    }

    /// One line per queue: its depth by state and oldest due time.
    static func lines(_ queues: [CommandJournalQueueStatistics]) -> [String] {
        let names = queues.map { $0.name ?? "(callers)" }
        let width = names.map(\.count).max() ?? 0
        var lines = zip(queues, names).map { queue, name in
            var line =
                "\(pad(name, width))  \(queue.due) due, \(queue.delayed) delayed, \(queue.running) running, "
                + "\(queue.stalled) stalled"
            if let oldest = queue.oldestDue { line += "; oldest due \(JournalRecordView.time(oldest))" }
            return line
        }
        lines.append(queues.count == 1 ? "1 queue with pending work" : "\(queues.count) queues with pending work")
        return lines
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        String(self[..<(lastIndex { $0 != " " }.map { index(after: $0) } ?? startIndex)])
    }
}
