import ArgumentParser
import Commands
import Scenarios

struct JournalSchedulesCommand: JournalReportCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedules",
        abstract: "Lists the journal's schedules: name, cron expression, time zone, queue and next run.",
        discussion: """
            Schedules are kept in the journal and run by every process's QueueScheduler, each tick once across \
            the fleet. The next run is the first time the cron expression names after the last tick enqueued \
            (or after the schedule was saved).
            """
    )

    static let report: JournalReport = JournalOperations.schedules
    @OptionGroup var journal: JournalLocationOptions
}
