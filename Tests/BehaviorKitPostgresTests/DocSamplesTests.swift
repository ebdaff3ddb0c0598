import BehaviorKitPostgres
import BehaviorKitSync
import Commands
import Testing

/// The samples of the README's "The journal on PostgreSQL" and of the module's guide, as written
/// there but for the server's URL: they must compile and do what the text says.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresDocSamplesTests {
    struct Charge: JournaledCommand {
        static let journalKind = "bank.charge"
        static let charged = LockedValue<[Int]>([])
        let order: Int
        let cents: Int
        var name: String { "charge \(order)" }
        var canUndo: Bool { false }
        func execute() async throws { Self.charged.withLock { $0.append(order) } }
        func undo() async throws {}
    }

    @Test func aQueueOnPostgresRunsWhatWasEnqueued() async throws {
        let cluster = try await PostgresTestCluster.shared()
        let url = cluster.url(database: try await cluster.makeDatabase("readme"))
        var registry = CommandRegistry()
        registry.register(Charge.self)

        let journal = try await PostgresCommandJournal(url: url)
        let payments = CommandQueue("payments", journal: journal, concurrency: 8)
        try await payments.enqueue(Charge(order: 42, cents: 990), key: "order-42/charge")
        let invoker = JournaledInvoker(journal: journal, registry: registry)
        let worker = Task { await QueueWorker(payments, invoker: invoker, pollInterval: .milliseconds(10)).run() }
        while try await journal.record(forKey: "order-42/charge")?.status != .done {
            try await Task.sleep(for: .milliseconds(10))
        }
        worker.cancel()
        _ = await worker.value
        await journal.close()  // answers the writes under way, then closes the connections

        #expect(Charge.charged.withLock { $0 } == [42])
        do {
            _ = try await journal.record(forKey: "order-42/charge")
            Issue.record("a closed journal answered")
        } catch let error as PostgresStoreError {
            #expect(error.code == .closed)
        }
    }
}
