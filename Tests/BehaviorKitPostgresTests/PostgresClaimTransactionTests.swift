import Commands
import Foundation
import Testing

@testable import BehaviorKitPostgres

/// A batch of claims or renewals alone is one statement in its own implicit transaction (one
/// round trip): its commit may be lost without harm, so its fate is not asked. Every other write keeps its
/// transaction (`BEGIN`, the batch, `COMMIT`), whose fate is asked after a lost connection.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresClaimTransactionTests {
    let worker = JournalLease(owner: "worker", duration: .seconds(30))

    @Test func aClaimAndARenewalRunAloneAndAnEnqueueInItsTransaction() async throws {
        let journals = try await OpenJournals("claimalone")
        // The server logs every statement of the journal's connections, opened after this.
        try await journals.cluster.psql(
            "ALTER DATABASE \"\(journals.database)\" SET log_statement = 'all'", database: journals.database)
        let table = journals.newTable()
        let journal = try await journals.open(table: table)
        for key in ["a", "b"] {
            _ = try await journal.enqueue(
                CommandJournalEntry(idempotencyKey: key, kind: "k", payload: []), queue: "q", after: .zero)
        }
        let claim = try await journal.claim(2, from: "q", concurrency: nil, lease: worker)
        #expect(claim.records.map(\.entry.idempotencyKey).sorted() == ["a", "b"])
        let attempts = Dictionary(uniqueKeysWithValues: claim.records.map { ($0.entry.idempotencyKey, $0.attempts) })
        #expect(try await journal.renew(attempts, lease: worker).sorted() == ["a", "b"])
        await journals.closeAll()

        // What the backends that ran the table's batch were sent, in order.
        let log = try String(contentsOfFile: "\(journals.cluster.folder)/log", encoding: .utf8)
        let lines = log.split(separator: "\n").map(String.init)
        let call = PostgresJournalBatchFunction.call(table)
        func backend(_ line: String) -> Substring? {
            guard let open = line.firstIndex(of: "["), let close = line[open...].firstIndex(of: "]") else { return nil }
            return line[open..<close]
        }
        let backends = Set(lines.filter { $0.contains(call) }.compactMap(backend))
        let sent: [String] = lines.compactMap { line in
            guard let backend = backend(line), backends.contains(backend) else { return nil }
            if line.hasSuffix(": BEGIN") { return "BEGIN" }
            if line.hasSuffix(": COMMIT") { return "COMMIT" }
            return line.contains(call) ? "batch" : nil
        }
        #expect(
            Array(sent.suffix(8)) == ["BEGIN", "batch", "COMMIT", "BEGIN", "batch", "COMMIT", "batch", "batch"],
            "\(sent)")
    }
}
