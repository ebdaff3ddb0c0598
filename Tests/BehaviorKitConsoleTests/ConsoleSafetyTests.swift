import BehaviorKitConsole
import BehaviorKitTesting
import Commands
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Logging
import Testing

@Suite("Console safety")
struct ConsoleSafetyTests {
    @Test("A hostile key shows as text on every page it is on, never as markup")
    func escaping() async throws {
        let harness = try await ConsoleHarness()
        let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
        try await harness.test { client in
            let key = "%3Cscript%3Ealert(1)%3C%2Fscript%3E"
            for uri in ["/ops/", "/ops/records", "/ops/record?key=\(key)", "/ops/records?prefix=\(key)"] {
                let page = try await client.page(uri)
                #expect(!page.contains(ConsoleFixture.hostileKey), "\(uri)")
                #expect(page.contains(escaped), "\(uri)")
            }
        }
    }

    @Test("An action without the CSRF token, or with a wrong one, is refused with 403 and changes nothing")
    func csrf() async throws {
        let harness = try await ConsoleHarness()
        try await harness.test { client in
            let missing = try await client.post("/ops/cancel", ["key": "email-later"])
            #expect(missing.status == .forbidden)
            let wrong = try await client.post(
                "/ops/cancel", ["key": "email-later", "csrf": String(repeating: "0", count: 64)])
            #expect(wrong.status == .forbidden)
        }
        #expect(try await harness.journal.record(forKey: "email-later")?.status == .pending)
    }

    @Test("A read-only console shows no action form and refuses every action with 403")
    func readOnly() async throws {
        let harness = try await ConsoleHarness { JournalConsole.Options(readOnly: true, clock: $0) }
        try await harness.test { client in
            let page = try await client.page("/ops/record?key=charge-failed")
            #expect(!page.contains("<form class=\"action\"") && page.contains("id=\"read-only\""))
            let refused = try await client.post("/ops/retry", ["key": "charge-failed", "csrf": ""])
            #expect(refused.status == .forbidden)
        }
        #expect(try await harness.journal.record(forKey: "charge-failed")?.status == .failed)
    }

    @Test("Without the token, the token middleware answers 401; a bearer header, the cookie or ?token= let in")
    func token() async throws {
        let harness = try await ConsoleHarness()
        let token = "t0ken-for-tests"
        try await harness.test(token: token) { client in
            _ = try await client.page("/ops/", status: .unauthorized)
            _ = try await client.page("/ops/?token=wrong", status: .unauthorized)
            _ = try await client.page("/ops/", headers: [.authorization: "Bearer \(token)"])
            let (location, cookie) = try await client.execute(
                uri: "/ops/records?status=failed&token=\(token)", method: .get
            ) {
                ($0.headers[.location], $0.headers[.setCookie])
            }
            #expect(location == "/ops/records?status=failed")
            let setCookie = try #require(cookie)
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"))
            let value = try #require(setCookie.split(separator: ";").first)
            _ = try await client.page("/ops/records", headers: [.cookie: String(value)])
            let post = try await client.post("/ops/cancel", ["key": "email-later"])
            #expect(post.status == .unauthorized)
        }
    }

    @Test("An error's database URL password and the listed secrets never reach a page or a log")
    func noPassword() async throws {
        let failing = FailingJournal(
            message: "connection to postgres://ops:hunter2@db.internal:5432/jobs refused (password hunter2 rejected)")
        let console = JournalConsole(journal: failing, options: JournalConsole.Options(secrets: ["hunter2"]))
        let logs = InMemoryLogHandler()
        let router = Router()
        console.addRoutes(to: router.group("ops"))
        let app = Application(router: router, logger: Logger(label: "test") { _ in logs })
        try await app.test(.router) { client in
            for uri in ["/ops/", "/ops/records", "/ops/record?key=a", "/ops/workers"] {
                let page = try await client.page(uri, status: .internalServerError)
                #expect(!page.contains("hunter2"))
                #expect(page.contains("postgres://ops:***@db.internal:5432/jobs"))
            }
        }
        let logged = logs.entries.map { "\($0.message) \($0.metadata)" }
        #expect(!logged.isEmpty)
        #expect(logged.allSatisfy { !$0.contains("hunter2") })
    }
}

/// A journal whose reads all fail with an error that names a database URL with its password.
final class FailingJournal: ForwardingCommandJournal, @unchecked Sendable {
    let message: String

    struct Failure: Error, CustomStringConvertible { let description: String }

    init(message: String) {
        self.message = message
        super.init(InMemoryCommandJournal())
    }

    override func prune(
        settledBefore date: Date, statuses: Set<CommandJournalStatus>, queue: String?, limit: Int?
    ) async throws -> Int {
        throw Failure(description: message)
    }
    override func record(forKey key: String) async throws -> CommandJournalRecord? {
        throw Failure(description: message)
    }
    override func unfinished() async throws -> [CommandJournalRecord] { throw Failure(description: message) }
    override func records(parentKey: String) async throws -> [CommandJournalRecord] {
        throw Failure(description: message)
    }
    override func allRecords() async throws -> [CommandJournalRecord] { throw Failure(description: message) }
    override func records(
        matching filter: CommandJournalFilter, after cursor: Int64?, limit: Int
    ) async throws -> CommandJournalPage {
        throw Failure(description: message)
    }
    override func details(forKey key: String) async throws -> CommandJournalRecordDetails? {
        throw Failure(description: message)
    }
    override func queues() async throws -> [CommandJournalQueueStatistics] { throw Failure(description: message) }
    override func workers() async throws -> [CommandJournalWorker] { throw Failure(description: message) }
    override func schedules() async throws -> [CommandJournalSchedule] { throw Failure(description: message) }
}
