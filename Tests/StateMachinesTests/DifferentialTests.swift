import BehaviorKitSync
import StateMachines
import Testing

/// BehaviorKit against the reference interpreter of SCXML's Appendix D (Reference/), on random
/// charts: after the start and after each event, the same configuration and the same entries,
/// exits and transitions in the same order.
struct DifferentialTests {
    static let charts = 4_000
    static let eventsPerChart = 12
    static let firstSeed: UInt64 = 17_002

    @Test func behaviorKitAgreesWithTheReferenceOnRandomCharts() {
        var failures = 0
        var recordedHistoryEntries = 0
        for offset in 0..<UInt64(Self.charts) where failures < 3 {
            switch Self.compare(seed: Self.firstSeed &+ offset) {
            case .failure(let difference):
                failures += 1
                Issue.record(Comment(rawValue: difference.description))
            case .success(let entries):
                recordedHistoryEntries += entries
            }
        }
        // The charts reach what the test is for: transitions into recorded history.
        if failures == 0 { #expect(recordedHistoryEntries >= Self.charts / 4) }
    }

    struct Difference: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the chart of `seed` on both: the first difference, or how many times a recorded
    /// history was entered.
    static func compare(seed: UInt64) -> Result<Int, Difference> {
        var random = SplitMix64(seed: seed)
        let chart = ReferenceChart.random(using: &random, size: Int.random(in: 4...16, using: &random))
        var reference = ReferenceInterpreter(chart, context: DifferentialContext())
        var machine = StateMachine(chart.definition(), context: DifferentialContext())
        func difference(after step: String) -> Difference? {
            let configuration = machine.configuration
            var history: [Int: [Int]] = [:]
            for record in machine.snapshot.history { history[record.history] = record.states }
            guard
                configuration != reference.activeStates || machine.context != reference.context
                    || history != reference.historyValue
            else { return nil }
            return Difference(
                description: """
                    seed \(seed), after \(step):
                    BehaviorKit: \(configuration) \(machine.context.log) history \(history)
                    reference:   \(reference.activeStates) \(reference.context.log) history \(reference.historyValue)
                    \(chart)
                    """)
        }
        if let found = difference(after: "the start") { return .failure(found) }
        var sent: [Int] = []
        for _ in 0..<eventsPerChart {
            let event = Int.random(in: 0..<3, using: &random)
            let budget = Int.random(in: 1...4, using: &random)
            sent.append(event)
            machine.context = DifferentialContext(budget: budget)
            reference.context = DifferentialContext(budget: budget)
            machine.send(event)
            reference.send(event)
            if let found = difference(after: "events \(sent)") { return .failure(found) }
        }
        return .success(reference.recordedHistoryEntries)
    }
}
