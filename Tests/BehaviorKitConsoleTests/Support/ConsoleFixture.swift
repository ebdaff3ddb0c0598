import BehaviorKitConsole
import Commands

/// A journal with one record of each kind a person looks for: due, delayed, running on a queue
/// (two workers), run by a caller, failed with an error, done with an output, a compensated
/// transaction with its steps, and a key that is an HTML attack.
enum ConsoleFixture {
    static let hostileKey = "<script>alert(1)</script>"
    static let failureReason = "card declined: <b>insufficient funds</b> & more"
    static let output = "receipt <42>"

    static func seed(_ journal: any CommandJournal) async throws {
        func entry(_ key: String, _ kind: String, parent: String? = nil) -> CommandJournalEntry {
            CommandJournalEntry(idempotencyKey: key, kind: kind, payload: Array("{}".utf8), parentKey: parent)
        }
        _ = try await journal.enqueue(entry("email-1", "send-email"), queue: "emails", after: .zero)
        _ = try await journal.enqueue(entry(hostileKey, "send-email"), queue: "emails", after: .zero)
        _ = try await journal.enqueue(entry("email-later", "send-email"), queue: "emails", after: .seconds(3_600))
        _ = try await journal.enqueue(entry("payment-1", "charge"), queue: "payments", after: .zero)
        _ = try await journal.enqueue(entry("payment-2", "charge"), queue: "payments", after: .zero)
        let workerA = JournalLease(owner: "worker-a", duration: .seconds(600))
        let workerB = JournalLease(owner: "worker-b", duration: .seconds(600))
        _ = try await journal.claim(1, from: "payments", concurrency: nil, takingOverFrom: nil, lease: workerA)
        _ = try await journal.claim(1, from: "payments", concurrency: nil, takingOverFrom: nil, lease: workerB)

        let caller = JournalLease(owner: "web-1", duration: .seconds(600))
        _ = try await journal.begin(entry("report-1", "build-report"), lease: caller)

        _ = try await journal.enqueue(entry("charge-failed", "charge"), queue: "payments", after: .zero)
        let workerC = JournalLease(owner: "worker-c", duration: .seconds(600))
        for record in try await journal.claim(
            1, from: "payments", concurrency: nil, takingOverFrom: nil, lease: workerC
        )
        .records {
            try await journal.settle(record.id, as: .failed(reason: failureReason), lease: workerC.fenced(by: record))
        }
        if case .started(let record) = try await journal.begin(entry("charge-done", "charge"), lease: caller) {
            try await journal.settle(
                "charge-done", as: .done(output: Array(output.utf8)), lease: caller.fenced(by: record))
        }
        let transaction = "order-7"
        if case .started(let record) = try await journal.begin(
            entry(transaction, CommandJournalCancellation.transactionKind), lease: caller)
        {
            let lease = caller.fenced(by: record)
            _ = try await journal.append(entry("order-7/reserve", "reserve", parent: transaction), lease: lease)
            try await journal.settle("order-7/reserve", as: .done(output: Array("reserved".utf8)), lease: lease)
            _ = try await journal.append(entry("order-7/ship", "ship", parent: transaction), lease: lease)
            try await journal.settle("order-7/ship", as: .failed(reason: "carrier down"), lease: lease)
            try await journal.settle("order-7/reserve", as: .compensated, lease: lease)
            try await journal.settle(transaction, as: .compensated, lease: lease)
        }
    }
}
