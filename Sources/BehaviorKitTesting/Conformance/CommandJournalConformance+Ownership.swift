import BehaviorKitSync
import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CommandJournalConformance {
    static func aLiveLeaseIsNeverTakenOver(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws {
        let check = "a live lease is never taken over; an expired one is, and fences its old owner"
        _ = try await journal.begin(entry("k"), lease: lease)
        await clock.advance(by: .seconds(29))
        let early = try await journal.claim(10, from: nil, concurrency: nil, lease: other)
        try expect(early.records.isEmpty, check, "a claim before the lease expired took \(early.records.map(\.id))")
        guard case .busy = try await journal.begin(entry("k"), lease: other) else {
            throw failure(check, "a begin before the lease expired did not answer busy")
        }
        await clock.advance(by: .seconds(1))
        let late = try await journal.claim(10, from: nil, concurrency: nil, lease: other)
        try expect(
            late.records.map(\.id) == ["k"] && late.records.first?.owner == other.owner
                && late.records.first?.attempts == 2, check,
            "a claim after the lease expired took \(late.records)")
        try await expectError(.leaseLost(key: "k", owner: other.owner), check, "the old owner settling") {
            try await journal.settle("k", as: .done(output: nil), lease: lease)
        }
        try await expectError(.leaseLost(key: "k", owner: other.owner), check, "the old owner appending a child") {
            _ = try await journal.append(child("k", 0), lease: lease)
        }
        let renewed = try await journal.renew(["k": 1], lease: lease)
        try expect(renewed.isEmpty, check, "the old owner renewed \(renewed)")
        try await journal.settle("k", as: .done(output: nil), lease: other)
        _ = try await journal.begin(entry("j"), lease: lease)
        await clock.advance(by: .seconds(31))
        guard case .resumed(let resumed) = try await journal.begin(entry("j"), lease: other) else {
            throw failure(check, "a begin after the lease expired did not take the record over")
        }
        try expect(resumed.owner == other.owner && resumed.attempts == 2, check, "the takeover gave \(resumed)")
    }

    static func aStoppedWorkersRecordsAreTakenAtOnceWhenNamed(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a worker known to have stopped has its records taken at once, and only its records"
        _ = try await journal.begin(entry("dead"), lease: lease)
        _ = try await journal.begin(entry("alive"), lease: other)
        let third = JournalLease(owner: "conformance-c", duration: .seconds(30))
        let claim = try await journal.claim(10, from: nil, concurrency: nil, takingOverFrom: lease.owner, lease: third)
        try expect(
            claim.records.map(\.id) == ["dead"] && claim.records.first?.owner == third.owner, check,
            "taking over from '\(lease.owner)' claimed \(claim.records.map { "\($0.id):\($0.owner ?? "-")" })")
        try expect(
            claim.previousOwners == ["dead": lease.owner], check,
            "the claim names the previous owners \(claim.previousOwners), not ['dead': '\(lease.owner)']")
        _ = try await journal.enqueue(entry("queued"), queue: "q", after: .zero)
        let fresh = try await journal.claim(1, from: "q", concurrency: nil, lease: third)
        try expect(
            fresh.records.map(\.id) == ["queued"] && fresh.previousOwners.isEmpty, check,
            "a queued record no worker held was claimed with previous owners \(fresh.previousOwners)")
    }

    static func renewingKeepsALease(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws {
        let check = "renewing keeps a lease past its first expiry"
        try await begin(journal, "k", "gone")
        try await journal.settle("gone", as: .done(output: nil), lease: lease)
        await clock.advance(by: .seconds(20))
        let kept = try await journal.renew(["k": 1, "gone": 1, "unknown": 1], lease: lease)
        try expect(kept == ["k"], check, "renew kept \(kept)")
        await clock.advance(by: .seconds(20))
        let claim = try await journal.claim(10, from: nil, concurrency: nil, lease: other)
        try expect(claim.records.isEmpty, check, "a renewed lease was claimed: \(claim.records.map(\.id))")
        let record = try await journal.record(forKey: "k")
        try expect(
            record?.leaseExpiresAt == ManualClock.origin.addingTimeInterval(50), check,
            "the renewed lease runs until \(String(describing: record?.leaseExpiresAt))")
    }

    static func aSettledRootChangesNoMore(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws {
        let check = "a settled root and its children change no more"
        try await beginWithAChild(journal, "t")
        try await journal.settle("t/0", as: .done(output: [1]), lease: lease)
        try await journal.settle("t", as: .done(output: nil), lease: lease)
        try await expectError(.leaseLost(key: "t", owner: lease.owner), check, "settling a done root compensated") {
            try await journal.settle("t", as: .compensated, lease: lease)
        }
        try await expectError(.leaseLost(key: "t", owner: lease.owner), check, "compensating a step of a done root") {
            try await journal.settle("t/0", as: .compensated, lease: lease)
        }
        await clock.advance(by: .seconds(60))
        let claim = try await journal.claim(10, from: nil, concurrency: nil, lease: other)
        try expect(claim.records.isEmpty, check, "a claim took settled records \(claim.records.map(\.id))")
    }

    static func releasingMakesARecordClaimable(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "release gives a record up, claimable after the delay"
        try await begin(journal, "now", "later")
        try await journal.release("now", lease: lease, after: .zero)
        try await journal.release("later", lease: lease, after: .seconds(10))
        try await journal.release("later", lease: other, after: .zero)  // not its owner: nothing happens
        let first = try await journal.claim(10, from: nil, concurrency: nil, lease: other)
        try expect(first.records.map(\.id) == ["now"], check, "the first claim took \(first.records.map(\.id))")
        try expect(first.nextDue == .seconds(10), check, "the next due after \(String(describing: first.nextDue))")
        await clock.advance(by: .seconds(10))
        let second = try await journal.claim(10, from: nil, concurrency: nil, lease: other)
        try expect(second.records.map(\.id) == ["later"], check, "the second claim took \(second.records.map(\.id))")
    }

    static func concurrentClaimsNeverShareARecord(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "concurrent claims never take one record twice"
        for index in 0..<40 { _ = try await journal.begin(entry("k\(index)"), lease: lease) }
        await clock.advance(by: .seconds(31))
        let taken = LockedValue<[String]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    let lease = JournalLease(owner: "claimer-\(worker)", duration: .seconds(30))
                    while true {
                        let claim = try await journal.claim(3, from: nil, concurrency: nil, lease: lease)
                        if claim.records.isEmpty { return }
                        taken.withLock { $0 += claim.records.map(\.id) }
                        try expect(
                            claim.records.allSatisfy { $0.owner == lease.owner }, check,
                            "a claim returned records owned by \(claim.records.map(\.owner))")
                    }
                }
            }
            try await group.waitForAll()
        }
        let keys = taken.withLock { $0 }
        try expect(
            keys.count == 40 && Set(keys).count == 40, check, "\(keys.count) claims of \(Set(keys).count) records")
    }
}
