import Commands
import Foundation
import Testing

@testable import Scenarios

/// The fleet's checks of the queue's flow control see a limit per customer exceeded, a claim
/// while the queue was paused and a tick missed or out of its schedule's life — and count only
/// what a kept lease makes a promise.
struct FleetFlowChecksTests {
    private func run(
        _ root: String, by worker: String, token: Int = 1, _ started: Int64, _ ended: Int64?, refused: Bool = false
    ) -> FleetLedger.LoggedExecution {
        FleetLedger.LoggedExecution(
            key: root + "/0", root: root, worker: worker, attempt: token, kind: "run", started: started, ended: ended,
            refused: refused)
    }

    private var flow: FleetFlowControl {
        var flow = FleetFlowControl()
        flow.partitions = 2
        flow.perPartition = 2
        return flow
    }

    @Test func threeOrdersOfOneCustomerAtOnceBreakALimitOfTwo() {
        // order-0, -2 and -4 are customer-0's; order-1 is customer-1's.
        let executions = [
            run("order-0", by: "w0.1", 100, 200), run("order-2", by: "w1.1", 150, 250),
            run("order-4", by: "w2.1", 180, 300), run("order-1", by: "w3.1", 100, 300),
        ]
        let (peak, violations) = FleetFlowChecks.partitionOverlaps(executions, flow, pauses: [:])
        #expect(peak == 3)
        #expect(violations.count == 1)
        #expect(violations.first?.hasPrefix("customer-0 ran 3 orders at once at 180 (limit 2)") == true)
    }

    @Test func ordersOneAfterAnotherOrUpToTheLimitKeepIt() {
        let executions = [
            run("order-0", by: "w0.1", 100, 200), run("order-2", by: "w1.1", 150, 250),
            run("order-4", by: "w2.1", 250, 300),  // starts as order-2 ends: not at once
            run("order-6", by: "w3.1", 50, 50),  // within one millisecond, long before
        ]
        let (peak, violations) = FleetFlowChecks.partitionOverlaps(executions, flow, pauses: [:])
        #expect(peak == 2)
        #expect(violations.isEmpty)
    }

    @Test func anAttemptTakenOverRefusedOrPausedHadNoLeaseForCertainAndIsNotCounted() {
        let overlapping = [run("order-0", by: "w0.1", 100, 200), run("order-2", by: "w1.1", 150, 250)]
        let takenOver =
            overlapping + [
                run("order-4", by: "w2.1", token: 1, 180, 190), run("order-4", by: "w3.1", token: 2, 400, 450),
            ]
        #expect(FleetFlowChecks.partitionOverlaps(takenOver, flow, pauses: [:]).violations.isEmpty)
        let refused = overlapping + [run("order-4", by: "w2.1", 180, 190, refused: true)]
        #expect(FleetFlowChecks.partitionOverlaps(refused, flow, pauses: [:]).violations.isEmpty)
        let paused = overlapping + [run("order-4", by: "w2.1", 180, 190)]
        #expect(FleetFlowChecks.partitionOverlaps(paused, flow, pauses: ["w2.1": [120]]).violations.isEmpty)
        // A pause of that worker long before the attempt does not excuse it.
        #expect(FleetFlowChecks.partitionOverlaps(paused, flow, pauses: ["w2.1": [-10_000]]).violations.count == 1)
    }

    @Test func moreAttemptsInAWindowThanTheRateAllowsIsAViolation() {
        // 2 a second: a 5 s window holds at most 2 × (5 + 2) + 1 = 15 begun attempts.
        let steady = (0..<40).map { run("order-\($0)", by: "w0.1", Int64($0) * 500, Int64($0) * 500 + 10) }
        let kept = FleetFlowChecks.rateExceeded(steady, startsPerSecond: 2, pauses: [:])
        #expect(kept.peak == 10 && kept.violations.isEmpty)
        let burst = (0..<16).map { run("order-\($0)", by: "w0.1", Int64($0) * 100, Int64($0) * 100 + 10) }
        let broken = FleetFlowChecks.rateExceeded(burst, startsPerSecond: 2, pauses: [:])
        #expect(broken.peak == 16 && broken.violations.count == 1)
        // The same burst, but one of its workers' attempts began just after a pause: its start is late.
        let late = FleetFlowChecks.rateExceeded(burst, startsPerSecond: 2, pauses: ["w0.1": [0]])
        #expect(late.violations.isEmpty)
        #expect(FleetFlowChecks.rateExceeded(burst, startsPerSecond: 0, pauses: [:]).violations.isEmpty)
    }

    @Test func anAttemptBegunWhileTheQueueWasPausedIsAViolationPastTheMargin() {
        let window: ClosedRange<Int64> = 10_000...14_000
        let executions = [
            run("order-0", by: "w0.1", 11_500, 11_600),  // a claim under way as the pause committed
            run("order-1", by: "w1.1", 12_500, 12_600),  // began while paused
            run("order-2", by: "w2.1", 13_000, 13_100),  // its worker was paused: its lease, not the queue
            run("order-3", by: "w3.1", 14_100, 14_200),  // after the resume
        ]
        let violations = FleetFlowChecks.claimsWhilePaused(executions, windows: [window], pauses: ["w2.1": [9_000]])
        #expect(violations.count == 1)
        #expect(violations.first?.hasPrefix("order-1 attempt 1 began on w1.1 at 12500") == true)
    }

    @Test func everyMinuteOfTheSchedulesLifeHasItsTickDoneAndNoTickFallsOutside() throws {
        var flow = FleetFlowControl()
        flow.schedules = 1
        let schedule = try #require(try flow.tickSchedules().first)
        let minute: Int64 = 60_000
        let base: Int64 = 1_800_000_000_000 / minute * minute
        let life = (base - 30_000)...(base + minute + 40_000)  // ticks at base and base + 1 min required
        func record(_ tick: Int64, _ status: CommandJournalStatus = .done) throws -> CommandJournalRecord {
            let key = schedule.key(forTick: Date(timeIntervalSince1970: Double(tick) / 1_000))
            return CommandJournalRecord(
                sequence: tick,
                entry: try CommandRegistry.entry(
                    kind: FleetTick.kind, arguments: FleetTick(schedule: schedule.name), key: key),
                status: status)
        }
        let both = [try record(base), try record(base + minute)]
        let effects = Dictionary(uniqueKeysWithValues: both.map { ($0.id, schedule.name) })
        let kept = FleetFlowChecks.ticks(both, effects: effects, schedules: [schedule], life: life)
        #expect(kept.count == 2)
        #expect(kept.violations.isEmpty)

        let missing = FleetFlowChecks.ticks([both[0]], effects: effects, schedules: [schedule], life: life)
        #expect(missing.violations == ["the tick \(both[1].id) never ran"])

        let late = try record(base + 3 * minute)
        let outside = FleetFlowChecks.ticks(both + [late], effects: effects, schedules: [schedule], life: life)
        #expect(outside.violations == ["the tick \(late.id) ran outside its schedule's life"])

        let failed = [both[0], try record(base + minute, .failed)]
        let notDone = FleetFlowChecks.ticks(failed, effects: effects, schedules: [schedule], life: life)
        #expect(notDone.violations.count == 1)
    }
}
