import BehaviorKitSync
import Commands
import Foundation
import Testing

/// The typed calls over one submit function: each call's write, and its outcome unwrapped.
struct JournalWriteChannelTests {
    struct Unexpected: Error {}

    let submitted = LockedValue<[String]>([])

    func channel(answering outcome: JournalWriteOutcome) -> JournalWriteChannel {
        JournalWriteChannel(unexpected: { Unexpected() }) { [submitted] write in
            submitted.withLock { $0.append("\(write)".prefix { $0 != "(" }.description) }
            return outcome
        }
    }

    @Test func aCallSubmitsItsWriteAndUnwrapsItsOutcome() async throws {
        let lease = JournalLease(owner: "w", duration: .seconds(1))
        #expect(try await channel(answering: .keys(["a"])).renew(["a": 1], lease: lease) == ["a"])
        #expect(
            try await channel(answering: .count(3)).prune(
                settledBefore: .distantPast, statuses: [], queue: nil, limit: nil) == 3)
        #expect(submitted.withLock { $0 } == ["renew", "prune"])
    }

    @Test func anOutcomeOfAnotherKindThrowsTheUnexpectedError() async throws {
        let lease = JournalLease(owner: "w", duration: .seconds(1))
        await #expect(throws: Unexpected.self) { try await channel(answering: .none).renew([:], lease: lease) }
        await #expect(throws: Unexpected.self) { try await channel(answering: .count(1)).retry("k") }
    }

    @Test func noChangesSubmitNothing() async throws {
        try await channel(answering: .none).settle([], lease: JournalLease(owner: "w", duration: .seconds(1)))
        #expect(submitted.withLock { $0 }.isEmpty)
    }
}
