import BehaviorKitTesting
import StateMachines

/// Scenario 4: drives the vehicle machine and prints the article's lines.
public enum VehicleScenario {
    /// The article's test sequence.
    public static let articleEvents: [VehicleEvent] = [.brake, .accelerate, .accelerate, .brake, .park, .brake, .park]

    /// Turns event names into events, or fails naming the unknown ones and listing the valid
    /// ones.
    public static func events(named names: [String]) throws(UnknownEventError) -> [VehicleEvent] {
        var events: [VehicleEvent] = []
        for name in names {
            let trimmed = name.trimmingWhitespace()
            guard let event = VehicleEvent(rawValue: trimmed.lowercased()) else {
                throw UnknownEventError(name: trimmed)
            }
            events.append(event)
        }
        return events
    }

    /// Sends `events` in order, printing each message and refusal.
    ///
    /// With `settleBetweenEvents`, each event waits until the timers armed by the one before
    /// have fired (the CLI's `--instant`, on a clock that fires them at once). Either way the
    /// run ends only once no timer is pending.
    public static func run(
        events: [VehicleEvent], clock: some Clock<Duration>, console: Console, settleBetweenEvents: Bool
    ) async {
        let runtime = StateMachineRuntime(
            VehicleMachine.definition(say: console.print), context: Vehicle(), clock: clock)
        for event in events {
            if settleBetweenEvents { await runtime.idle() }
            if case .refused(let refusal) = runtime.send(event) {
                console.print(refusal.description)
            }
        }
        await runtime.idle()
    }

    /// Reads one event name per line, sends it, and prints the state and speed after each.
    /// An unknown name prints an error naming it and the valid ones, and the session goes on.
    ///
    /// - Returns: the number of lines that were not events.
    public static func interactive(
        lines: some Sequence<String>, clock: some Clock<Duration>, console: Console
    ) async -> Int {
        let runtime = StateMachineRuntime(
            VehicleMachine.definition(say: console.print), context: Vehicle(), clock: clock)
        var errors = 0
        for line in lines where !line.trimmingWhitespace().isEmpty {
            do {
                for event in try events(named: [line]) {
                    if case .refused(let refusal) = runtime.send(event) { console.print(refusal.description) }
                }
            } catch {
                errors += 1
                console.print("error: \(error)")
            }
            let snapshot = runtime.snapshot
            console.print("state: \(snapshot.state.rawValue), speed: \(snapshot.context.speed)")
        }
        await runtime.idle()
        return errors
    }

    /// The tour's stop: the article's sequence with the park finishing at once.
    public static let tourStop = TourStop(command: "vehicle --instant", title: "Vehicle: a state machine") { console in
        await run(events: articleEvents, clock: ImmediateClock(), console: console, settleBetweenEvents: true)
    }
}

/// An event name that the vehicle does not know.
public struct UnknownEventError: Error, CustomStringConvertible, Sendable {
    public let name: String

    public var description: String {
        "unknown event '\(name)'; valid events: \(VehicleEvent.allCases.map(\.rawValue).joined(separator: ", "))"
    }
}

extension String {
    func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
