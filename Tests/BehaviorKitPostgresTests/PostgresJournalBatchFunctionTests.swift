import Commands
import Foundation
import Testing

@testable import BehaviorKitPostgres

/// The batch function's versions and its refusal of a malformed call.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresJournalBatchFunctionTests {
    let worker = JournalLease(owner: "worker", duration: .seconds(30))

    func functions(_ journals: OpenJournals, _ table: String) async throws -> [String] {
        let names = try await journals.cluster.psql(
            "SELECT string_agg(p.oid::regprocedure::text, ' ' ORDER BY p.proname) FROM pg_proc AS p "
                + "WHERE p.proname LIKE '\(table)_batch_v%'", database: journals.database)
        return names.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    @Test func aDatabaseWithAnEarlierVersionGetsTheCurrentOneBesideIt() async throws {
        let journals = try await OpenJournals("versions")
        let table = journals.newTable()
        let first = try await journals.open(table: table)
        _ = try await first.begin(entry("k"), lease: worker)
        await first.close()
        // As an earlier release left it: its own version of the function, not this one.
        try await journals.cluster.psql(
            "DROP FUNCTION \"\(table)_batch_v4\"; CREATE FUNCTION \"\(table)_batch_v3\"(p_now bigint, p_ops jsonb) "
                + "RETURNS bigint LANGUAGE sql AS 'SELECT 3::bigint'", database: journals.database)
        #expect(try await functions(journals, table).count == 1)
        let reopened = try await journals.open(table: table)
        try await reopened.settle("k", as: .done(output: [7]), lease: worker)
        #expect(try await reopened.record(forKey: "k")?.output == [7])
        let present = try await functions(journals, table)
        #expect(present.contains("\(table)_batch_v3(bigint,jsonb)"), "\(present)")
        #expect(present.contains { $0.hasPrefix("\(table)_batch_v4(bigint,smallint[],text[]") }, "\(present)")
        await journals.closeAll()
    }

    @Test func arraysOfDifferentLengthsAreRefusedAndChangeNothing() async throws {
        let journals = try await OpenJournals("malformed")
        let table = journals.newTable()
        _ = try await journals.open(table: table)
        let arguments = PostgresJournalBatchParameter.allCases.map { parameter -> String in
            switch parameter {
            case .ops: "'{1}'::smallint[]"  // a begin with no key, no kind, no owner: lengths differ
            case .keys: "'{k}'::text[]"
            default: "NULL::\(parameter.type)"
            }
        }
        do {
            try await journals.cluster.psql(
                "SELECT * FROM \"\(PostgresJournalBatchFunction.name(table))\"(\(arguments.joined(separator: ", ")))",
                database: journals.database)
            Issue.record("a call whose arrays differ in length was run")
        } catch {
            #expect("\(error)".contains("the batch's arrays differ in length"), "\(error)")
        }
        let count = try await journals.cluster.psql("SELECT count(*) FROM \"\(table)\"", database: journals.database)
        #expect(count.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        await journals.closeAll()
    }
}
