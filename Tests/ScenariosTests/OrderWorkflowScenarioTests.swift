import Scenarios
import Testing

struct OrderWorkflowScenarioTests {
    /// The order workflow's trace: it waits for its payment (sent twice, received once), its worker
    /// is killed while it sleeps, and another worker ships it; each step once, the same every run
    /// (the hour passes on a manual clock).
    @Test func theOrderFinishesInAnotherWorkerTheSameEveryTime() async throws {
        let (console, recording) = Console.recording()
        try await OrderWorkflowScenario.run(console: console)
        #expect(
            recording.lines == [
                "Started order-7: a workflow run on queue 'orders' of a SQLite journal.",
                "  worker-1: reserved 2 items for order-7",
                "worker-1 took it up; the run is waiting for a message.",
                "Payment p-1 sent twice (a retried request): the second send changes nothing.",
                "  worker-1: charged 4200 cents (payment p-1)",
                "worker-1 took it up again; the run is sleeping for an hour.",
                "worker-1 is killed while the run sleeps: its connection closed, nothing of it left.",
                "An hour later, worker-2 opens the journal as another process would, and takes the run up:",
                "  worker-2: shipped order-7",
                "order-7: order-7 shipped, paid by p-1.",
                "Its journal, position by position:",
                "  0. step 'reserve': done",
                "  1. receive 'paid': done",
                "  2. step 'charge': done",
                "  3. sleep: done",
                "  4. step 'ship': done",
                "Each step ran once: reserve 1, charge 1, ship 1.",
            ])
        let (again, secondRecording) = Console.recording()
        try await OrderWorkflowScenario.run(console: again)
        #expect(secondRecording.lines == recording.lines)
    }
}
