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
}
