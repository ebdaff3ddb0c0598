import BehaviorKitConsole
import BehaviorKitTesting
import Commands
import Foundation
import HummingbirdTesting
import Testing

/// The overview draws each queue's last hour: a bar a minute of the records done and failed, a
/// mark where attempts were retried, its counts in each bar's title; an older minute is not drawn.
@Suite("Console activity")
struct ConsoleActivityTests {
    /// Enqueues `key` on "reports", claims it and settles it `done` (or failed) now.
    private func settle(_ key: String, done: Bool, _ journal: InMemoryCommandJournal) async throws {
        let entry = CommandJournalEntry(idempotencyKey: key, kind: "report", payload: Array("{}".utf8))
        _ = try await journal.enqueue(entry, queue: "reports", after: .zero)
        let lease = JournalLease(owner: "worker-r", duration: .seconds(60))
        for record in try await journal.claim(1, from: "reports", concurrency: nil, takingOverFrom: nil, lease: lease)
            .records
        {
            try await journal.settle(
                record.id, as: done ? .done(output: nil) : .failed(reason: "boom"), lease: lease.fenced(by: record))
        }
    }

    @Test("Each queue's last hour is a chart of bars a minute, titled with their counts")
    func chart() async throws {
        let harness = try await ConsoleHarness()
        try await settle("old", done: true, harness.journal)
        await harness.clock.advance(by: .seconds(7_200))  // "old" is two hours back now
        try await settle("r-1", done: true, harness.journal)
        try await settle("r-2", done: false, harness.journal)
        await harness.clock.advance(by: .seconds(120))
        try await settle("r-3", done: true, harness.journal)
        try await harness.test { client in
            let page = try await client.page("/ops/")
            let chart = try #require(
                page.firstMatch(of: /<figure class="activity-chart" data-queue="reports">(.*?)<\/figure>/).map {
                    String($0.1)
                })
            #expect(chart.contains("last hour: 2 done, 1 failed, 0 retried"))
            #expect(chart.matches(of: /<g class="minute">/).count == 2, "two minutes had activity in the hour")
            #expect(chart.contains(": 1 done, 1 failed, 0 retried</title>"))
            #expect(chart.contains(": 1 done, 0 failed, 0 retried</title>"))
            #expect(chart.contains("class=\"bar-failed\"") && chart.contains("class=\"bar-done\""))
            #expect(chart.contains("role=\"img\""))
        }
    }

    @Test("Under each queue's bars, how long its records waited to be picked up, a bar a minute")
    func pickups() async throws {
        let harness = try await ConsoleHarness()
        func entry(_ key: String) -> CommandJournalEntry {
            CommandJournalEntry(idempotencyKey: key, kind: "report", payload: Array("{}".utf8))
        }
        _ = try await harness.journal.enqueue(entry("slow"), queue: "reports", after: .zero)
        await harness.clock.advance(by: .seconds(3))
        _ = try await harness.journal.enqueue(entry("fast"), queue: "reports", after: .zero)
        let lease = JournalLease(owner: "worker-r", duration: .seconds(60))
        // Both claimed now: "slow" waited 3 s, "fast" none.
        for record in try await harness.journal.claim(2, from: "reports", concurrency: nil, lease: lease).records {
            try await harness.journal.settle(record.id, as: .done(output: nil), lease: lease.fenced(by: record))
        }
        let begun = entry("begun")
        _ = try await harness.journal.begin(begun, queue: "inline", lease: lease)
        try await harness.journal.settle("begun", as: .done(output: nil), lease: lease)
        try await harness.test { client in
            let page = try await client.page("/ops/")
            let chart = try #require(
                page.firstMatch(of: /<figure class="activity-chart" data-queue="reports">(.*?)<\/figure>/).map {
                    String($0.1)
                })
            #expect(chart.contains("pickup: mean 1.5 s, longest 3.0 s (2 records)"), "\(chart)")
            #expect(chart.contains(": pickup mean 1.5 s, longest 3.0 s, 2 records</title>"))
            #expect(chart.matches(of: /class="bar-pickup"/).count == 1)
            let inline = try #require(
                page.firstMatch(of: /<figure class="activity-chart" data-queue="inline">(.*?)<\/figure>/).map {
                    String($0.1)
                })
            #expect(!inline.contains("pickup"), "a record begun by its caller was never picked up")
        }
    }

    @Test("A journal with nothing settled in the hour says so")
    func empty() async throws {
        let harness = try await ConsoleHarness()
        await harness.clock.advance(by: .seconds(7_200))
        try await harness.test { client in
            let page = try await client.page("/ops/")
            #expect(page.contains("No record settled in the last hour."))
        }
    }
}
