import BehaviorKitTesting
import StateMachines

/// Scenario 6: a pedestrian crossing as a statechart (nesting, a parallel state, deep history,
/// raised events, a done event, timers), driven on a manual clock so that the trace is the
/// same on every run.
public enum CrossingScenario {
    /// One scripted event: at `time` after the start, `event`.
    public struct Step: Hashable, Sendable, CustomStringConvertible {
        public let time: Duration
        public let event: CrossingEvent

        public init(at time: Duration, _ event: CrossingEvent) {
            self.time = time
            self.event = event
        }

        public var description: String { "\(time.components.seconds):\(event.rawValue)" }
    }

    /// A pedestrian presses the button; a technician puts the crossing in service mode while
    /// the cars' light is yellow, someone presses the button during service, the crossing
    /// resumes where it left off, the pedestrian crosses, and the crossing is switched off.
    public static let defaultScript: [Step] = [
        Step(at: .seconds(2), .button), Step(at: .seconds(4), .service), Step(at: .seconds(5), .button),
        Step(at: .seconds(10), .resume), Step(at: .seconds(30), .shutdown),
    ]

    /// The latest time a script may name: a day.
    public static let maximumSeconds = 86_400

    /// Reads a script such as `2:button,4:service,10:resume`: seconds since the start (0 to
    /// ``maximumSeconds``) and an event, in order.
    public static func script(_ text: String) throws(CrossingScriptError) -> [Step] {
        var steps: [Step] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: ":", omittingEmptySubsequences: false).map {
                String($0).trimmingWhitespace()
            }
            guard parts.count == 2, let seconds = Int(parts[0]) else {
                throw CrossingScriptError(item: String(item), reason: "expected SECONDS:EVENT, such as 2:button")
            }
            guard (0...maximumSeconds).contains(seconds) else {
                throw CrossingScriptError(
                    item: String(item), reason: "seconds must be between 0 and \(maximumSeconds), got \(seconds)")
            }
            guard let event = CrossingEvent(rawValue: parts[1]), CrossingEvent.external.contains(event) else {
                throw CrossingScriptError(
                    item: String(item),
                    reason:
                        "unknown event '\(parts[1])'; valid events: \(CrossingEvent.external.map(\.rawValue).joined(separator: ", "))"
                )
            }
            if let last = steps.last, .seconds(seconds) < last.time {
                throw CrossingScriptError(item: String(item), reason: "times must not go backwards")
            }
            steps.append(Step(at: .seconds(seconds), event))
        }
        return steps
    }

    /// Runs `script` on a manual clock, printing each light's change with its time, each
    /// refusal, and at the end how many pedestrians crossed.
    public static func run(script: [Step], console: Console) async {
        let clock = ManualClock()
        let say: @Sendable (String) -> Void = { line in console.print("[\(stamp(clock.now.offset))] \(line)") }
        let runtime = StateMachineRuntime(CrossingMachine.definition(say: say), context: Crossing(), clock: clock)
        for step in script {
            await advance(runtime, clock, to: step.time)
            say("> \(step.event.rawValue)")
            if case .refused(let refusal) = runtime.send(step.event) { say(refusal.description) }
        }
        if !runtime.isFinished { await advance(runtime, clock, to: clock.now.offset + .seconds(60)) }
        console.print("Pedestrians crossed: \(runtime.context.crossings)")
        runtime.stop()
    }

    /// Moves the clock to `target` one timer deadline at a time, letting the runtime take each
    /// timer before the next, so that every timer fires at its own time.
    static func advance(
        _ runtime: StateMachineRuntime<CrossingState, CrossingEvent, Crossing, ManualClock>, _ clock: ManualClock,
        to target: Duration
    ) async {
        while true {
            let now = clock.now.offset
            let next = (runtime.snapshot.timers ?? []).map { now + $0.remaining }.min()
            guard let next, next <= target else { break }
            await clock.advance(to: .init(offset: next))
            // The driver takes the due timers on its own task: wait until none is due.
            var spins = 0
            while spins < 100_000, (runtime.snapshot.timers ?? []).contains(where: { $0.remaining <= .zero }) {
                await Task.yield()
                spins += 1
            }
        }
        if clock.now.offset < target { await clock.advance(to: .init(offset: target)) }
    }

    static func stamp(_ offset: Duration) -> String {
        let seconds = String(offset.components.seconds)
        return String(repeating: " ", count: Swift.max(0, 3 - seconds.count)) + seconds + " s"
    }

    /// The tour's stop: the default script.
    public static let tourStop = TourStop(command: "crossing", title: "Crossing: a statechart") { console in
        await run(script: defaultScript, console: console)
    }
}

/// A script item that is not `SECONDS:EVENT` with a known event.
public struct CrossingScriptError: Error, CustomStringConvertible, Sendable {
    public let item: String
    public let reason: String

    public var description: String { "bad script item '\(item)': \(reason)" }
}
