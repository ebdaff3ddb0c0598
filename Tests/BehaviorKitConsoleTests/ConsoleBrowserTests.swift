import BehaviorKitConsole
import BehaviorKitSQLite
import Commands
import Foundation
import Testing

/// The console in a real headless Chromium (Debian's `chromium` and `chromium-driver`), served
/// by ``ConsoleServer`` on 127.0.0.1 over a seeded SQLite journal: what a person sees and does.
@Suite(
    "Console in a browser", .serialized,
    .enabled(
        if: WebDriver.isAvailable,
        "headless Chromium is not installed (apt-get install chromium chromium-driver): browser tests skipped"))
struct ConsoleBrowserTests {
    @Test("A person sees the journal's counts, a failed record's error, retries it, cancels a delayed one")
    func console() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("console-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try SQLiteCommandJournal(path: directory.appendingPathComponent("journal.sqlite").path)
        try await ConsoleFixture.seed(journal)
        let served = try await ServedConsole.start(JournalConsole(journal: journal))
        let browser = try await WebDriver.start()
        do {
            try await walkThrough(browser, served, journal)
        } catch {
            await browser.quit()
            await served.stop()
            throw error
        }
        await browser.quit()
        await served.stop()
        try await journal.close()
        print("screenshots of each page: \(Screenshots.directory.path)")
    }

    private func walkThrough(
        _ browser: WebDriver, _ served: ServedConsole, _ journal: SQLiteCommandJournal
    ) async throws {
        // The token in the URL sets the cookie and leaves the address bar.
        try await browser.open(served.url)
        #expect(try await browser.currentURL() == served.root)
        let queues = try await journal.queues()
        #expect(try await browser.text("#count-pending .value") == "\(queues.reduce(0) { $0 + $1.depth })")
        for status in [CommandJournalStatus.done, .failed, .compensated] {
            let count = try await journal.records(
                matching: CommandJournalFilter(statuses: [status]), after: nil, limit: 100)
            #expect(try await browser.text("#count-\(status.rawValue) .value") == "\(count.records.count)")
        }
        for queue in queues {
            let row = "#queues tr[data-queue=\"\(queue.name ?? "")\"]"
            #expect(try await browser.text("\(row) td[data-column=\"due\"]") == "\(queue.due)")
            #expect(try await browser.text("\(row) td[data-column=\"delayed\"]") == "\(queue.delayed)")
            #expect(try await browser.text("\(row) td[data-column=\"running\"]") == "\(queue.running)")
        }
        try Screenshots.save(try await browser.screenshot(), as: "overview")

        // The hostile key shows as text: the link's text is the key, and no alert opened.
        try await browser.open(served.root + "records?queue=emails")
        let keys = try await browser.elements("#records td.key a")
        var shown: [String] = []
        for key in keys { shown.append(try await browser.text(ofElement: key)) }
        #expect(shown.contains(ConsoleFixture.hostileKey))
        #expect(await browser.alertText() == nil)
        try Screenshots.save(try await browser.screenshot(), as: "records")

        // A failed record's error shows; retry makes it pending, and a worker then runs it.
        try await browser.open(served.root + "records?status=failed")
        try await browser.click("#records td.key a")
        #expect(try await browser.text("#error") { $0 == ConsoleFixture.failureReason } == ConsoleFixture.failureReason)
        try Screenshots.save(try await browser.screenshot(), as: "record-failed")
        try await browser.click("#retry")
        #expect(try await browser.text("#notice") { $0.contains("pending") }.contains("pending"))
        #expect(try await journal.record(forKey: "charge-failed")?.status == .pending)
        let worker = JournalLease(owner: "worker-d", duration: .seconds(60))
        let claimed = try await journal.claim(1, from: "payments", concurrency: nil, takingOverFrom: nil, lease: worker)
        #expect(claimed.records.map(\.id) == ["charge-failed"])
        for record in claimed.records {
            try await journal.settle(
                record.id, as: .done(output: Array("charged".utf8)), lease: worker.fenced(by: record))
        }
        try await browser.open(served.root + "record?key=charge-failed")
        #expect(try await browser.text("#status") == "done")
        #expect(try await browser.text("#output") == "charged")
        try Screenshots.save(try await browser.screenshot(), as: "record-retried")

        // Cancel stops a delayed record: it settles, and never runs.
        try await browser.open(served.root + "record?key=email-later")
        try await browser.type("no longer wanted", into: "input[name=reason]")
        try await browser.click("#cancel")
        #expect(try await browser.text("#notice") { $0.contains("failed") }.contains("failed"))
        let cancelled = try await journal.record(forKey: "email-later")
        #expect(cancelled?.status == .failed && cancelled?.failureReason == "cancelled: no longer wanted")
        try await browser.open(served.root + "workers")
        try Screenshots.save(try await browser.screenshot(), as: "workers")

        // A form whose CSRF token was taken out is refused.
        try await browser.open(served.root + "record?key=email-1")
        try await browser.execute("document.querySelector('input[name=csrf]').remove()")
        try await browser.click("#cancel")
        #expect(try await browser.text("h1") { $0 == "403 Forbidden" } == "403 Forbidden")
        #expect(try await journal.record(forKey: "email-1")?.status == .pending)

        // Without the token (no cookie, no header), every page is refused.
        #expect(try await HTTP.send(served.root).status == 401)
        #expect(
            try await HTTP.send(served.root + "records", headers: [("Authorization", "Bearer \(served.token)")]).status
                == 200)
    }

    @Test(
        "The console on a fleet's journal shows the counts the journal has",
        .enabled(if: ProcessInfo.processInfo.environment["BEHAVIORKIT_CONSOLE_FLEET_JOURNAL"] != nil))
    func fleetJournal() async throws {
        let path = try #require(ProcessInfo.processInfo.environment["BEHAVIORKIT_CONSOLE_FLEET_JOURNAL"])
        let journal = try SQLiteCommandJournal(path: path)
        let console = JournalConsole(journal: journal, options: JournalConsole.Options(readOnly: true))
        let served = try await ServedConsole.start(console)
        let browser = try await WebDriver.start()
        do {
            try await browser.open(served.url)
            let queues = try await journal.queues()
            #expect(try await browser.text("#count-pending .value") == "\(queues.reduce(0) { $0 + $1.depth })")
            for status in [CommandJournalStatus.done, .failed, .compensated] {
                let page = try await journal.records(
                    matching: CommandJournalFilter(statuses: [status]), after: nil, limit: console.options.countLimit)
                let expected = page.nextCursor == nil ? "\(page.records.count)" : "≥ \(page.records.count)"
                #expect(try await browser.text("#count-\(status.rawValue) .value") == expected)
            }
            try Screenshots.save(try await browser.screenshot(), as: "fleet-overview")
            try await browser.open(served.root + "records")
            let first = try await journal.records(matching: CommandJournalFilter(), after: nil, limit: 50)
            #expect(try await browser.elements("#records td.key a").count == first.records.count)
            try Screenshots.save(try await browser.screenshot(), as: "fleet-records")
        } catch {
            await browser.quit()
            await served.stop()
            throw error
        }
        await browser.quit()
        await served.stop()
        try await journal.close()
    }
}
