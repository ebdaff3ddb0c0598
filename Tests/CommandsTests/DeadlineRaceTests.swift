import BehaviorKitSync
import BehaviorKitTesting
import Testing

/// The one race of work against a deadline (a transaction's compensations, a durable rollback).
struct DeadlineRaceTests {
    let manual = ManualClock()
    var clock: ElapsedClock { ElapsedClock(manual) }

    @Test func workThatFinishesFirstAnswersItsValue() async {
        let expired = LockedValue(false)
        let value = await DeadlineRace.run(until: .seconds(5), on: clock, expired: { expired.withLock { $0 = true } }) {
            42
        }
        #expect(value == 42)
        await manual.advance(by: .seconds(10))
        #expect(!expired.withLock { $0 }, "no deadline once the work answered")
    }

    @Test func aDeadlineThatPassesFirstAnswersNilAndCancelsTheWork() async {
        let expired = LockedValue(false)
        let cancelled = LockedValue(false)
        let manual = self.manual
        let race = Task {
            await DeadlineRace.run(
                until: .seconds(5), on: ElapsedClock(manual), expired: { expired.withLock { $0 = true } }
            ) {
                do {
                    try await manual.sleep(for: .seconds(60))
                    return 1
                } catch {
                    cancelled.withLock { $0 = true }
                    return 2
                }
            }
        }
        await manual.waitForSleepers(count: 2)
        await manual.advance(by: .seconds(5))
        #expect(await race.value == nil)
        #expect(expired.withLock { $0 })
        #expect(await eventually { cancelled.withLock { $0 } }, "the work was cancelled")
    }

    @Test func withoutADeadlineTheCallersCancellationDoesNotReachTheWork() async {
        let manual = self.manual
        let race = Task {
            await DeadlineRace.run(until: nil, on: ElapsedClock(manual)) { () async -> Bool in
                do {
                    try await manual.sleep(for: .seconds(60))
                    return true
                } catch {
                    return false
                }
            }
        }
        await manual.waitForSleepers(count: 1)
        race.cancel()
        await manual.advance(by: .seconds(60))
        #expect(await race.value == true, "the work slept its minute out")
    }
}
