import BehaviorKitSQLite
import Benchmark
import Commands
import Foundation

// The management API (`behaviorkit journal list|show|workers|queues`) on the journal of
// 1,000,000 settled records, with 1,000 pending ones beside them (due, delayed and held, on two
// queues) and 100 failed: each call reads an index, never the settled records. One iteration is
// one call; the figure is its wall time (the goal: at most 100 ms).

/// The 1,000,000-record journal with the pending and failed records the calls look for, made
/// once per process, outside the measurement.
actor ManagedMillionJournal {
    private var journal: SQLiteCommandJournal?

    func opened() async throws -> SQLiteCommandJournal {
        if let journal { return journal }
        let journal = try SQLiteCommandJournal(path: millionRecordJournal)
        let lease = JournalLease(owner: "benchmark", duration: .seconds(3600))
        for index in 0..<1_000 {
            let entry = CommandJournalEntry(idempotencyKey: "queued-\(index)", kind: "bank.charge")
            _ = try await journal.enqueue(
                entry, queue: index.isMultiple(of: 2) ? "payments" : "mail",
                after: index.isMultiple(of: 3) ? .seconds(3600) : .zero)
        }
        _ = try await journal.claim(100, from: "payments", concurrency: nil, lease: lease)
        for index in 0..<100 {
            let record = try await journal.begin(
                CommandJournalEntry(idempotencyKey: "failed-\(index)", kind: "bank.charge"), lease: lease
            ).record
            try await journal.settle(record.id, as: .failed(reason: "declined"), lease: lease.fenced(by: record))
        }
        self.journal = journal
        return journal
    }
}

let managedMillionJournal = ManagedMillionJournal()

/// Registers a benchmark of one management call on the journal.
func managementBenchmark(
    _ name: String, _ call: @escaping @Sendable (SQLiteCommandJournal) async throws -> some Sendable
) {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock], scalingFactor: .one, maxDuration: .seconds(10), maxIterations: 50)
    Benchmark("JournalManagement.\(name)", configuration: configuration) { benchmark in
        let journal = try await managedMillionJournal.opened()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try await call(journal)) }
        benchmark.stopMeasurement()
    }
}

let managementBenchmarks: @Sendable () -> Void = {
    let filters: [(String, CommandJournalFilter)] = [
        ("first", CommandJournalFilter()),
        ("failed", CommandJournalFilter(statuses: [.failed])),
        ("pending", CommandJournalFilter(statuses: [.pending])),
        ("queue", CommandJournalFilter(queue: "mail")),
        ("keyPrefix", CommandJournalFilter(keyPrefix: "order-12345")),
        ("keyPrefixCommon", CommandJournalFilter(keyPrefix: "order-")),
    ]
    for (name, filter) in filters {
        managementBenchmark("list1M.\(name)") { journal in
            try await journal.records(matching: filter, after: nil, limit: 50)
        }
    }
    managementBenchmark("details1M") { journal in try await journal.details(forKey: "order-4242") }
    managementBenchmark("workers1M") { journal in try await journal.workers() }
    managementBenchmark("queues1M") { journal in try await journal.queues() }
}
