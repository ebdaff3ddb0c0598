import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// `CommandRecoveryReport` as JSON: what a recovery settled, and each unreadable record with
/// its reason and a readable message, read back equal.
struct CommandRecoveryReportCodingTests {
    static let unreadable: [CommandRegistryError] = [
        .unregisteredKind("old.kind", key: "k9"),
        .undecodablePayload(kind: "test.note", key: "k1", reason: "missing 'text'"),
        .unencodableArguments(kind: "test.note", key: "k2", reason: "infinite amount"),
    ]

    static var sample: CommandRecoveryReport {
        var report = CommandRecoveryReport()
        report.replayed = ["mail-1", "mail-2"]
        report.compensatedTransactions = ["order-42"]
        report.completedTransactions = ["order-43"]
        report.failed = ["order-44"]
        report.leftPending = ["order-45"]
        report.unreadable = unreadable
        return report
    }

    @Test func aReportRoundTrips() throws {
        let report = Self.sample
        #expect(try JSONDecoder().decode(CommandRecoveryReport.self, from: JSONEncoder().encode(report)) == report)
        let empty = CommandRecoveryReport()
        #expect(try JSONDecoder().decode(CommandRecoveryReport.self, from: JSONEncoder().encode(empty)).isEmpty)
    }

    @Test(arguments: unreadable)
    func everyRegistryErrorRoundTrips(_ error: CommandRegistryError) throws {
        #expect(try JSONDecoder().decode(CommandRegistryError.self, from: JSONEncoder().encode(error)) == error)
    }

    @Test func anUnreadableRecordIsWrittenWithItsKindKeyAndMessage() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(Self.unreadable[1]), as: UTF8.self)
        #expect(
            text
                == #"{"case":"undecodablePayload","key":"k1","kind":"test.note","message":"record 'k1': its payload "#
                + #"does not decode as 'test.note' (missing 'text'); the record is kept","reason":"missing 'text'"}"#)
    }

    @Test func theReportOfARealRecoveryRoundTrips() async throws {
        let clock = ManualClock()
        let journal = InMemoryCommandJournal(clock: clock)
        let stopped = JournalLease(owner: "stopped", duration: .seconds(30))
        _ = try await journal.begin(CommandJournalEntry(idempotencyKey: "k9", kind: "old.kind"), lease: stopped)
        await clock.advance(by: .seconds(30))
        let report = try await JournaledInvoker(journal: journal, clock: clock).recover()
        #expect(report.unreadable == [.unregisteredKind("old.kind", key: "k9")])
        #expect(try JSONDecoder().decode(CommandRecoveryReport.self, from: JSONEncoder().encode(report)) == report)
    }

    /// Every stored property is encoded, under its own key (the conformance is the synthesized
    /// one: a property added to the report is encoded too).
    @Test func everyStoredPropertyIsEncoded() throws {
        let report = Self.sample
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any]
        #expect(object?.count == Mirror(reflecting: report).children.count)
    }

    @Test func anUnknownCaseIsNamedWithTheKnownOnes() {
        let text = #"{"case":"lost","kind":"a","key":"b"}"#
        #expect {
            try JSONDecoder().decode(CommandRegistryError.self, from: Data(text.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription
                == "unknown case 'lost'; expected one of 'unregisteredKind', 'undecodablePayload', 'unencodableArguments'"
        }
    }
}
