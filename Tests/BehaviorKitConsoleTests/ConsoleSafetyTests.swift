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
struct FailingJournal: CommandJournal {
    let inner = InMemoryCommandJournal()
    let message: String

    struct Failure: Error, CustomStringConvertible { let description: String }

    func begin(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalBegin {
        try await inner.begin(entry, lease: lease)
    }
    func append(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalRecord {
        try await inner.append(entry, lease: lease)
    }
    func settle(_ key: String, as settlement: CommandJournalSettlement, lease: JournalLease) async throws {
        try await inner.settle(key, as: settlement, lease: lease)
    }
    func settle(_ changes: [CommandJournalChange], lease: JournalLease) async throws {
        try await inner.settle(changes, lease: lease)
    }
    func renew(_ attempts: [String: Int], lease: JournalLease) async throws -> [String] {
        try await inner.renew(attempts, lease: lease)
    }
    func release(_ key: String, lease: JournalLease, after delay: Duration) async throws {
        try await inner.release(key, lease: lease, after: delay)
    }
    func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, takingOverFrom deadOwner: String?, lease: JournalLease
    ) async throws -> CommandJournalClaim {
        try await inner.claim(limit, from: queue, concurrency: concurrency, takingOverFrom: deadOwner, lease: lease)
    }
    func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration
    ) async throws -> CommandJournalRecord {
        try await inner.enqueue(entry, queue: queue, after: delay)
    }
    func prune(
        settledBefore date: Date, statuses: Set<CommandJournalStatus>, queue: String?, limit: Int?
    ) async throws -> Int { throw Failure(description: message) }
    func retry(
        matching filter: CommandJournalFilter, after cursor: Int64?, limit: Int
    ) async throws
        -> JournalBulkResult
    { throw Failure(description: message) }
    func cancel(
        matching filter: CommandJournalFilter, reason: String, after cursor: Int64?, limit: Int
    ) async throws -> JournalBulkResult { throw Failure(description: message) }
    func record(forKey key: String) async throws -> CommandJournalRecord? { throw Failure(description: message) }
    func unfinished() async throws -> [CommandJournalRecord] { throw Failure(description: message) }
    func records(parentKey: String) async throws -> [CommandJournalRecord] { throw Failure(description: message) }
    func allRecords() async throws -> [CommandJournalRecord] { throw Failure(description: message) }
    func queues() async throws -> [CommandJournalQueueStatistics] { throw Failure(description: message) }
    func workers() async throws -> [CommandJournalWorker] { throw Failure(description: message) }
}
