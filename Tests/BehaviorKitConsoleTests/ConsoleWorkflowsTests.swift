import BehaviorKitConsole
import BehaviorKitTesting
import Commands
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// The console's workflow runs and queue controls: the runs listed and filtered; a run's
/// positions with their outputs, errors, sleeps and children; cancel from a run's page; pause
/// and resume a queue from the overview.
@Suite("Console workflows and queues")
struct ConsoleWorkflowsTests {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "card declined <b>" }
    }

    static let pick = Workflow("console pick") { (context, _: Int) -> Int in
        try await context.receive(Int.self, topic: "go", timeout: .seconds(86_400)) ?? 0
    }
    static let order = Workflow("console order") { (context, number: Int) -> String in
        let reservation = try await context.step("reserve") { _ in "r-\(number)" }
        _ = try? await context.step("charge") { _ -> Int in throw Failure() }
        _ = try await context.start(pick, key: "\(context.key)-pick", input: number)
        try await context.sleep(for: .seconds(60))
        let paid = try await context.receive(String.self, topic: "paid", timeout: .seconds(3_600))
        return "\(reservation) \(paid ?? "unpaid")"
    }

    static let refunded = Workflow("console refund") { (context, _: Int) -> String in
        _ = try await context.step("charge") { _ in
            "c-1"
        } compensate: { _, _ in
        }
        _ = try await context.step("ship") { _ -> String in throw Failure() }
        return "shipped"
    }

    /// A worker of both workflows on the harness's journal, with `op-1` started and run until it sleeps.
    private func sleepingRun(_ harness: ConsoleHarness, key: String = "op-1") async throws -> Workflows {
        var registry = WorkflowRegistry()
        registry.register(Self.pick)
        registry.register(Self.order)
        registry.register(Self.refunded)
        let workflows = Workflows(
            registry, queue: CommandQueue("workflows", journal: harness.journal),
            invoker: JournaledInvoker(
                journal: harness.journal, owner: "process-1", leaseDuration: .seconds(30), clock: harness.clock),
            pollInterval: .seconds(30))
        try await workflows.start(Self.order, key: key, input: 1)
        try await workflows.runDue()
        return workflows
    }

    @Test("The runs are listed with their workflow and status, and filtered by status")
    func list() async throws {
        let harness = try await ConsoleHarness()
        _ = try await sleepingRun(harness)
        try await harness.test { client in
            let page = try await client.page("/ops/workflows")
            #expect(page.contains("href=\"workflow?key=op-1\"") && page.contains("href=\"workflow?key=op-1-pick\""))
            #expect(page.contains("console order") && page.contains("console pick"))
            // Only runs: the seeded records of other kinds are not listed.
            #expect(!page.contains("email-1"))
            let done = try await client.page("/ops/workflows?status=done")
            #expect(done.contains("No workflow run.") && !done.contains("op-1"))
            let bad = try await client.page("/ops/workflows?status=asleep", status: .badRequest)
            #expect(bad.contains("status: &#39;asleep&#39; is not one of") || bad.contains("status: 'asleep'"))
            let overview = try await client.page("/ops/")
            #expect(overview.contains("href=\"workflows\""))
        }
    }

    @Test("A run's page shows its state, each position's output, error, sleep and child, and its children")
    func run() async throws {
        let harness = try await ConsoleHarness()
        _ = try await sleepingRun(harness)
        try await harness.test { client in
            let page = try await client.page("/ops/workflow?key=op-1")
            #expect(page.contains("<td id=\"state\">sleeping</td>"))
            #expect(page.contains("<td id=\"workflow\">console order</td>"))
            #expect(page.contains("<pre>&quot;r-1&quot;</pre>"))
            #expect(page.contains("card declined &lt;b&gt;"))
            #expect(page.contains("data-kind=\"start\"") && page.contains("href=\"workflow?key=op-1-pick\""))
            #expect(page.contains("data-kind=\"sleep\"") && page.contains("ends "))
            #expect(page.contains("id=\"children\""))
            #expect(page.contains("id=\"cancel-workflow-form\""))
            let child = try await client.page("/ops/workflow?key=op-1-pick")
            #expect(child.contains("href=\"workflow?key=op-1\""))  // its parent
            _ = try await client.page("/ops/workflow?key=nope", status: .notFound)
            let notARun = try await client.page("/ops/workflow?key=email-1", status: .badRequest)
            #expect(notARun.contains("not a workflow"))
        }
    }

    @Test("A run that rolled back shows why, and each compensation it ran")
    func rollback() async throws {
        let harness = try await ConsoleHarness()
        let workflows = try await sleepingRun(harness)
        try await workflows.start(Self.refunded, key: "refund-1", input: 1)
        try await workflows.runDue()
        #expect(try await harness.journal.record(forKey: "refund-1")?.status == .compensated)
        try await harness.test { client in
            let page = try await client.page("/ops/workflow?key=refund-1")
            #expect(page.contains("id=\"rollback\"") && page.contains("card declined &lt;b&gt;"))
            let table = try #require(
                page.firstMatch(of: /<table id="compensations">(.*?)<\/table>/).map { String($0.1) })
            #expect(table.contains("<td>charge</td>") && table.contains("status-compensated"))
            #expect(!table.contains("<td>ship</td>"), "only finished steps with a compensation are compensated")
        }
    }

    @Test("Cancel from a run's page cancels the run and its child, and says so")
    func cancel() async throws {
        let harness = try await ConsoleHarness()
        _ = try await sleepingRun(harness, key: "op-2")
        try await harness.test { client in
            let page = try await client.page("/ops/workflow?key=op-2")
            let response = try await client.post(
                "/ops/cancel-workflow", ["key": "op-2", "reason": "test over", "csrf": try csrfToken(in: page)])
            #expect(response.status == .seeOther)
            let location = try #require(response.headers[.location])
            #expect(location.hasPrefix("workflow?key=op-2&message="))
            let after = try await client.page("/ops/" + location)
            #expect(after.contains("id=\"notice\"") && after.contains("<td id=\"cancelled\">test over</td>"))
            #expect(!after.contains("id=\"cancel-workflow-form\""))
            let refused = try await client.post(
                "/ops/cancel-workflow", ["key": "email-1", "csrf": try csrfToken(in: page)])
            #expect(refused.status == .conflict)
        }
        #expect(try await harness.journal.record(forKey: "op-2")?.status == .failed)
        #expect(try await harness.journal.record(forKey: "op-2-pick")?.status == .failed)
    }

    @Test("Pause and resume a queue from the overview: durable, and shown while it has nothing pending")
    func pauseAndResume() async throws {
        let harness = try await ConsoleHarness()
        try await harness.journal.pause(queue: "idle")
        try await harness.test { client in
            let overview = try await client.page("/ops/")
            #expect(overview.contains("id=\"pause-emails-form\"") && overview.contains("id=\"resume-idle-form\""))
            #expect(overview.contains("data-queue=\"idle\""))
            let response = try await client.post(
                "/ops/pause", ["queue": "emails", "csrf": try csrfToken(in: overview)])
            #expect(response.status == .seeOther)
            // Back to the overview ("./" beside the action's path).
            let location = try #require(response.headers[.location])
            #expect(location.hasPrefix("./?message="))
            let after = try await client.page("/ops/" + location.dropFirst(2))
            #expect(after.contains("id=\"notice\"") && after.contains("id=\"resume-emails-form\""))
            let missing = try await client.post("/ops/resume", ["csrf": try csrfToken(in: overview)])
            #expect(missing.status == .badRequest)
        }
        #expect(try await harness.journal.pausedQueues() == ["emails", "idle"])
        try await harness.test { client in
            let overview = try await client.page("/ops/")
            _ = try await client.post("/ops/resume", ["queue": "emails", "csrf": try csrfToken(in: overview)])
        }
        #expect(try await harness.journal.pausedQueues() == ["idle"])
    }

    @Test("Each queue's rate limits are on the overview, an idle limited queue's too")
    func rateLimits() async throws {
        let harness = try await ConsoleHarness()
        try await harness.journal.setRateLimit(
            try QueueRateLimit(starts: 10, per: .seconds(1)), queue: "emails", scope: .queue)
        try await harness.journal.setRateLimit(
            try QueueRateLimit(starts: 2, per: .seconds(60), burst: 1), queue: "reports", scope: .partition)
        try await harness.test { client in
            let overview = try await client.page("/ops/")
            #expect(overview.contains("<td data-column=\"rate\">10 starts per"))
            #expect(overview.contains("data-queue=\"reports\""))
            #expect(overview.contains(", burst 1 per partition</td>"))
        }
    }

    @Test("A read-only console shows no pause, resume or cancel, and refuses them")
    func readOnly() async throws {
        let harness = try await ConsoleHarness { JournalConsole.Options(readOnly: true, clock: $0) }
        _ = try await sleepingRun(harness)
        try await harness.test { client in
            let overview = try await client.page("/ops/")
            #expect(!overview.contains("pause-emails-form"))
            let run = try await client.page("/ops/workflow?key=op-1")
            #expect(!run.contains("cancel-workflow-form"))
            let refused = try await client.post("/ops/pause", ["queue": "emails", "csrf": "x"])
            #expect(refused.status == .forbidden)
        }
        #expect(try await harness.journal.pausedQueues().isEmpty)
    }
}
