public import Commands
import Foundation

extension JournalOperations {
    /// Prints the journal's schedules: name, cron expression, time zone, queue, missed-run
    /// policy and next tick.
    public static func schedules(_ journal: any CommandJournalManagement, format: Format, console: Console) async throws
    {
        let schedules = try await journal.schedules()
        switch format {
        case .json:
            struct Schedule: Encodable {
                let name, cron, timeZone, queue, kind, missedRuns: String
                let revision: Int64
                let lastTick, nextTick: String?
            }
            console.print(
                try json(
                    schedules.map {
                        Schedule(
                            name: $0.schedule.name, cron: $0.schedule.cron.expression,
                            timeZone: $0.schedule.timeZone.identifier, queue: $0.schedule.queue,
                            kind: $0.schedule.kind, missedRuns: policy($0.schedule.missedRuns), revision: $0.revision,
                            lastTick: $0.lastTick.map(JournalRecordView.time),
                            nextTick: $0.nextTick.map(JournalRecordView.time))
                    }))
        case .text:
            for kept in schedules {
                let schedule = kept.schedule
                console.print(
                    "\(schedule.name)  \(schedule.cron.expression)  \(schedule.timeZone.identifier)  "
                        + "queue \(schedule.queue)  next \(kept.nextTick.map(JournalRecordView.time) ?? "never")  "
                        + "missed runs: \(policy(schedule.missedRuns))")
            }
            console.print(schedules.count == 1 ? "1 schedule" : "\(schedules.count) schedules")
        }
    }

    /// `policy` as the listing prints it.
    static func policy(_ policy: MissedTimerPolicy) -> String {
        switch policy {
        case .fire: "fire once"
        case .skip(let lateBy): "skip when late by more than \(lateBy)"
        case .catchUp(let most): "catch up at most \(most)"
        }
    }
}
