import BehaviorKitTesting
import Commands
import Testing

/// What a parent learns of a child run that rolled back.
struct WorkflowCompensatedChildTests {
    struct SoldOut: Error, CustomStringConvertible {
        var description: String { "sold out" }
    }

    /// A child compensated fails its result in the parent, naming the child and why it rolled
    /// back; the parent, taken up again after a sleep, gets the same answer from its journal.
    @Test func aCompensatedChildsResultNamesWhyItRolledBack() async throws {
        let clock = ManualClock()
        let journal = InMemoryCommandJournal(clock: clock)
        let child = Workflow("reserve") { (context, _: Int) -> Int in
            try await context.step("hold") { _ in
                1
            } compensate: { _, _ in
            }
            throw SoldOut()
        }
        let parent = Workflow("order") { (context, number: Int) -> [String] in
            let started = try await context.start(child, key: "\(context.key)-reserve", input: number)
            var seen: [String] = []
            do { _ = try await started.result() } catch { seen.append("\(error)") }
            try await context.sleep(for: .seconds(60))
            return seen
        }
        var registry = WorkflowRegistry()
        registry.register(child)
        registry.register(parent)
        let workflows = Workflows(
            registry, queue: CommandQueue("workflows", journal: journal),
            invoker: JournaledInvoker(journal: journal, owner: "worker", leaseDuration: .seconds(30), clock: clock),
            pollInterval: .seconds(30))
        let handle = try await workflows.start(parent, key: "order-1", input: 1)
        for _ in 0..<3 { try await workflows.runDue() }
        await clock.advance(by: .seconds(60))
        try await workflows.runDue()

        let seen = try await handle.result()
        #expect(seen.count == 1)
        #expect(seen.first?.contains("the workflow 'order-1-reserve' was compensated") == true)
        #expect(seen.first?.contains("sold out") == true)
    }
}
