import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension WorkflowConformance {
    /// DBOS: a durable sleep records its wake-up time before it waits, so that it "will
    /// resume at the scheduled time" after a restart, never sooner
    /// (https://docs.dbos.dev/python/tutorials/workflow-tutorial, `DBOS.sleep`). Here the
    /// deadline is a calendar date: another process finds nothing due a second before it and
    /// finishes the run at it; a run that starts after the deadline goes straight on.
    static func aSleepUntilADateNeverEndsEarlyAndSurvivesARestart(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a sleep until a date never ends early, survives a restart, and a passed date goes straight on"
        let effects = WorkflowEffects()
        let renew = sleeper("renew", effects, answer: { (_: Date) in "renewed" }) { context, deadline in
            try await context.sleep(until: deadline)
            try await context.sleep(until: deadline)  // passed by then: straight on
        }
        let deadline = ManualClock.origin.addingTimeInterval(3_600)
        let (answer, restarted) = try await expectSleepSurvivesARestart(
            renew, key: "renew-1", input: deadline, endingIn: .seconds(3_600), journal, clock, effects, check)
        try expect(answer == "renewed", check, "the run answered \(answer)")

        let late = try await restarted.start(renew, key: "renew-2", input: deadline)
        try expect(try await restarted.runDue() == 1, check, "the late run was not taken")
        try expect(try await late.status() == .done, check, "a run started after its deadline waited")
        let children = try await journal.records(parentKey: "renew-2").count
        try expect(children == 4, check, "the late run wrote \(children) children, not its 2 steps and 2 sleeps")
    }
}
