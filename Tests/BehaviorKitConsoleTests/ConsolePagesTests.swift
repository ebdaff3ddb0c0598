import BehaviorKitConsole
import BehaviorKitTesting
import Commands
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite("Console pages")
struct ConsolePagesTests {
    @Test("The overview shows each queue's depth by state, the counts by status, and the workers")
    func overview() async throws {
        let harness = try await ConsoleHarness()
        let queues = try await harness.journal.queues()
        let page = try await harness.test { try await $0.page("/ops/") }
        let emails = try #require(queues.first { $0.name == "emails" })
        #expect(emails.due == 2 && emails.delayed == 1)
        #expect(page.contains("<tr data-queue=\"emails\">"))
        #expect(
            page.contains(
                "<td class=\"number\" data-column=\"due\">2</td><td class=\"number\" data-column=\"delayed\">1</td>"))
        let pending = queues.reduce(0) { $0 + $1.depth }
        #expect(page.contains("id=\"count-pending\" href=\"records?status=pending\"><div class=\"value\">\(pending)<"))
        #expect(page.contains("id=\"count-failed\" href=\"records?status=failed\"><div class=\"value\">1<"))
        #expect(page.contains("id=\"count-compensated\" href=\"records?status=compensated\"><div class=\"value\">1<"))
        #expect(page.contains("worker-a") && page.contains("worker-b") && page.contains("web-1"))
        #expect(page.contains("Changed in the last 5 minutes"))
    }

    @Test("The overview lists the schedules with their cron expression, time zone, queue and next run")
    func overviewSchedules() async throws {
        let harness = try await ConsoleHarness()
        let empty = try await harness.test { try await $0.page("/ops/") }
        #expect(empty.contains("<table id=\"schedules\">") && empty.contains("No schedule."))
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        _ = try await harness.journal.saveSchedule(
            QueueSchedule(
                "nightly <report>", cron: try CronExpression("30 2 * * *"), timeZone: berlin, queue: "reports",
                kind: "report.build"))
        let page = try await harness.test { try await $0.page("/ops/") }
        #expect(page.contains("<tr data-schedule=\"nightly &lt;report&gt;\"><td>nightly &lt;report&gt;</td>"))
        #expect(page.contains("<td class=\"cron\">30 2 * * *</td><td>Europe/Berlin</td><td>reports</td>"))
        // The clock stands at 1 January 2026, 00:00 UTC: 02:30 in Berlin is 01:30 UTC.
        #expect(page.contains("title=\"2026-01-01T01:30:00Z\""))
    }

    @Test("The overview at the group's path without its slash redirects to it, keeping relative links right")
    func overviewRedirects() async throws {
        let harness = try await ConsoleHarness()
        let location = try await harness.test { client in
            try await client.execute(uri: "/ops", method: .get) { $0.headers[.location] }
        }
        #expect(location == "/ops/")
    }

    @Test("Counts above the count limit show as at least the limit")
    func countLimit() async throws {
        let harness = try await ConsoleHarness { JournalConsole.Options(countLimit: 1, clock: $0) }
        let lease = JournalLease(owner: "web-2", duration: .seconds(60))
        let entry = CommandJournalEntry(idempotencyKey: "charge-done-2", kind: "charge")
        if case .started(let record) = try await harness.journal.begin(entry, lease: lease) {
            try await harness.journal.settle("charge-done-2", as: .done(output: nil), lease: lease.fenced(by: record))
        }
        let page = try await harness.test { try await $0.page("/ops/") }
        #expect(page.contains("id=\"count-done\" href=\"records?status=done\"><div class=\"value\">≥ 1<"))
    }

    @Test("Records filter by status, queue, kind, key prefix, owner and time range")
    func filters() async throws {
        let harness = try await ConsoleHarness()
        let now = harness.clock.currentDate
        try await harness.test { client in
            let failed = try await client.page("/ops/records?status=failed")
            #expect(failed.contains(">charge-failed</a>") && !failed.contains(">charge-done</a>"))
            let emails = try await client.page("/ops/records?queue=emails")
            #expect(emails.contains(">email-later</a>") && !emails.contains(">payment-1</a>"))
            let charges = try await client.page("/ops/records?kind=charge")
            #expect(charges.contains(">payment-1</a>") && !charges.contains(">email-1</a>"))
            let prefixed = try await client.page("/ops/records?prefix=charge-")
            #expect(prefixed.contains(">charge-done</a>") && !prefixed.contains(">payment-1</a>"))
            let owned = try await client.page("/ops/records?owner=worker-a")
            #expect(owned.contains(">payment-1</a>") && !owned.contains(">payment-2</a>"))
            let since = ISO8601DateFormatter().string(from: now.addingTimeInterval(60))
            let none = try await client.page("/ops/records?since=\(since)")
            #expect(none.contains("No record."))
            let before = try await client.page("/ops/records?before=\(since)&status=done")
            #expect(before.contains(">charge-done</a>"))
            let bad = try await client.page("/ops/records?status=lost", status: .badRequest)
            #expect(bad.contains("status: &#39;lost&#39; is not one of pending, done, failed, compensated"))
            let badTime = try await client.page("/ops/records?since=yesterday", status: .badRequest)
            #expect(badTime.contains("is not a time such as"))
        }
    }

    @Test("Records page by cursor: the next page starts after the last record shown")
    func paging() async throws {
        let harness = try await ConsoleHarness { JournalConsole.Options(pageSize: 3, clock: $0) }
        let all = try await harness.journal.records(matching: CommandJournalFilter(), after: nil, limit: 100).records
        try await harness.test { client in
            var seen: [String] = []
            var uri: String? = "/ops/records"
            while let next = uri {
                let page = try await client.page(next)
                seen += page.matches(of: /<td class="key"><a href="[^"]*">([^<]*)<\/a>/).map { String($0.1) }
                uri =
                    page.firstMatch(of: /id="next"/) == nil
                    ? nil : page.firstMatch(of: /href="(records\?[^"]*after=\d+)" id="next"/).map { "/ops/" + $0.1 }
            }
            #expect(seen.count == all.count)
        }
    }

    @Test("A record's page shows its steps and attempts on a timeline, with outputs and errors")
    func record() async throws {
        let harness = try await ConsoleHarness()
        try await harness.test { client in
            let transaction = try await client.page("/ops/record?key=order-7")
            #expect(transaction.contains("order-7/reserve") && transaction.contains("order-7/ship"))
            #expect(transaction.contains("<pre>reserved</pre>"))
            #expect(transaction.contains("<pre class=\"error\">carrier down</pre>"))
            #expect(transaction.contains("Compensated because"))
            let failed = try await client.page("/ops/record?key=charge-failed")
            #expect(failed.contains("card declined: &lt;b&gt;insufficient funds&lt;/b&gt; &amp; more"))
            #expect(failed.contains("Attempt 1 by worker-c"))
            let done = try await client.page("/ops/record?key=charge-done")
            #expect(done.contains("<pre id=\"output\">receipt &lt;42&gt;</pre>"))
            _ = try await client.page("/ops/record?key=nope", status: .notFound)
            _ = try await client.page("/ops/record", status: .badRequest)
        }
    }

    @Test("The workers page lists each worker's lease and the records it holds")
    func workers() async throws {
        let harness = try await ConsoleHarness()
        let page = try await harness.test { try await $0.page("/ops/workers") }
        #expect(page.contains(">worker-a</a>") && page.contains(">payment-1</a>"))
        #expect(page.contains(">worker-b</a>") && page.contains(">payment-2</a>"))
        #expect(page.contains("live"))
    }

    @Test("Every page loads nothing but the console's own stylesheet, which the console serves")
    func offline() async throws {
        let harness = try await ConsoleHarness()
        try await harness.test { client in
            for uri in ["/ops/", "/ops/records", "/ops/record?key=order-7", "/ops/workers"] {
                let page = try await client.page(uri)
                #expect(!page.contains("http://") && !page.contains("https://") && !page.contains("<script"))
                #expect(page.contains("<link rel=\"stylesheet\" href=\"console.css\">"))
            }
            let css = try await client.page("/ops/console.css")
            #expect(css.contains(".status-failed"))
        }
    }
}
