import BehaviorKitConsole
import Commands
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@Suite("Console actions")
struct ConsoleActionsTests {
    @Test("Cancel from a delayed record's page settles it cancelled: it never runs")
    func cancel() async throws {
        let harness = try await ConsoleHarness()
        try await harness.test { client in
            let page = try await client.page("/ops/record?key=email-later")
            #expect(page.contains("id=\"cancel-form\"") && !page.contains("id=\"retry-form\""))
            let response = try await client.post(
                "/ops/cancel", ["key": "email-later", "reason": "not needed", "csrf": try csrfToken(in: page)])
            #expect(response.status == .seeOther)
            let location = try #require(response.headers[.location])
            #expect(location.hasPrefix("record?key=email-later&message="))
            let after = try await client.page("/ops/" + location)
            #expect(after.contains("id=\"notice\"") && after.contains("cancelled: not needed"))
        }
        let record = try #require(try await harness.journal.record(forKey: "email-later"))
        #expect(record.status == .failed && record.failureReason == "cancelled: not needed")
    }

    @Test("Retry from a failed record's page makes it pending again, due now")
    func retry() async throws {
        let harness = try await ConsoleHarness()
        try await harness.test { client in
            let page = try await client.page("/ops/record?key=charge-failed")
            let response = try await client.post(
                "/ops/retry", ["key": "charge-failed", "csrf": try csrfToken(in: page)])
            #expect(response.status == .seeOther)
        }
        #expect(try await harness.journal.record(forKey: "charge-failed")?.status == .pending)
    }

    @Test("An action the journal refuses shows its reason with 409")
    func refused() async throws {
        let harness = try await ConsoleHarness()
        try await harness.test { client in
            let page = try await client.page("/ops/record?key=charge-failed")
            let response = try await client.post(
                "/ops/cancel", ["key": "charge-done", "csrf": try csrfToken(in: page)])
            #expect(response.status == .conflict)
            #expect(String(buffer: response.body).contains("settled already"))
        }
    }

    @Test("Retry all matching retries every failed record the filter matches, and says how many")
    func retryMatching() async throws {
        let harness = try await ConsoleHarness()
        try await harness.test { client in
            let page = try await client.page("/ops/records?status=failed&queue=payments")
            #expect(page.contains("id=\"retry-matching-form\"") && !page.contains("id=\"cancel-matching-form\""))
            let response = try await client.post(
                "/ops/retry-matching", ["status": "failed", "queue": "payments", "csrf": try csrfToken(in: page)])
            #expect(response.status == .seeOther)
            let location = try #require(response.headers[.location])
            #expect(location.hasPrefix("records?status=failed&queue=payments&message="))
            let after = try await client.page("/ops/" + location)
            #expect(after.contains("Retry all matching: 1 retried."))
            // No filter: no bulk button (it would act on every record).
            #expect(!(try await client.page("/ops/records")).contains("matching-form"))
        }
        #expect(try await harness.journal.record(forKey: "charge-failed")?.status == .pending)
    }

    @Test("Cancel all matching cancels the pending records the filter matches, and refuses with their reasons")
    func cancelMatching() async throws {
        let harness = try await ConsoleHarness()
        try await harness.test { client in
            let page = try await client.page("/ops/records?queue=emails&status=pending")
            let response = try await client.post(
                "/ops/cancel-matching",
                ["status": "pending", "queue": "emails", "reason": "campaign over", "csrf": try csrfToken(in: page)])
            #expect(response.status == .seeOther)
            let after = try await client.page("/ops/" + (try #require(response.headers[.location])))
            #expect(after.contains("Cancel all matching: 3 cancelled."))
            let settled = try await client.post(
                "/ops/cancel-matching", ["status": "done", "csrf": try csrfToken(in: page)])
            #expect(settled.status == .conflict, "a filter of settled records has nothing to cancel")
        }
        for key in ["email-1", "email-later", ConsoleFixture.hostileKey] {
            let record = try #require(try await harness.journal.record(forKey: key))
            #expect(record.status == .failed && record.failureReason == "cancelled: campaign over")
        }
        #expect(try await harness.journal.record(forKey: "payment-1")?.status == .pending, "another queue's record")
    }
}
