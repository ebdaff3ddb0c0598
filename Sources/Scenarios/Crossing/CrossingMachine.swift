public import StateMachines

/// The states of the pedestrian crossing (scenario 6), nested as the statechart draws them.
public enum CrossingState: String, Hashable, Sendable, Codable, CaseIterable {
    /// Working normally; its deep history state `resume` remembers where.
    case operating, resume
    /// The two lights side by side, a parallel state.
    case running
    /// The cars' light and its colours.
    case cars, carsGreen, carsYellow, carsRed
    /// The pedestrians' light and its phases; `crossing` is done when `crossed` is reached.
    case pedestrians, dontWalk, waiting, crossing, walk, flashing, crossed
    /// Maintenance: the lights flash yellow.
    case service
    /// Switched off for good.
    case off
}

/// What happens at the crossing: a pedestrian presses the button, the technician switches the
/// service mode on and off, the city switches the crossing off; and the two signals the lights
/// raise for each other.
public enum CrossingEvent: String, Hashable, Sendable, Codable, CaseIterable {
    case button, service, resume, shutdown
    /// Raised by the pedestrians' light when someone waits.
    case requested
    /// Raised by the cars' light when it turns red.
    case carsStopped
    /// Raised by the pedestrians' light when the crossing is clear again.
    case cleared

    /// The events a person can send (the others are raised by the lights themselves).
    public static let external: [CrossingEvent] = [.button, .service, .resume, .shutdown]
}

/// How many pedestrians crossed.
public struct Crossing: Hashable, Sendable, Codable {
    public var crossings = 0

    public init(crossings: Int = 0) {
        self.crossings = crossings
    }
}

/// The crossing as a statechart: the cars' and pedestrians' lights run in parallel and talk by
/// raising events; the service mode leaves them and resumes exactly where they were (deep
/// history).
public enum CrossingMachine {
    /// How long the cars' light stays yellow.
    public static let yellowTime: Duration = .seconds(3)
    /// How long pedestrians see "walk", then a flashing "don't walk".
    public static let walkTime: Duration = .seconds(8)
    public static let flashTime: Duration = .seconds(4)

    /// The definition, with its messages handed to `say`.
    public static func definition(
        say: @escaping @Sendable (String) -> Void = { _ in }
    ) -> StateMachineDefinition<CrossingState, CrossingEvent, Crossing> {
        StateMachineDefinition(initial: .operating) {
            In(.operating, initial: .running) {
                History(.resume, .deep, default: .running)
                On(.service, to: .service)
                On(.shutdown, to: .off)
                Parallel(.running) {
                    In(.cars, initial: .carsGreen) {
                        In(.carsGreen) {
                            Entry("green") { _ in say("Cars: green") }
                            On(.requested, to: .carsYellow)
                        }
                        In(.carsYellow) {
                            Entry("yellow") { _ in say("Cars: yellow") }
                            After(yellowTime, to: .carsRed)
                        }
                        In(.carsRed) {
                            Entry("red") { _ in say("Cars: red") }
                            Entry(.raise(.carsStopped))
                            On(.cleared, to: .carsGreen)
                        }
                    }
                    In(.pedestrians, initial: .dontWalk) {
                        In(.dontWalk) {
                            Entry("don't walk") { _ in say("Pedestrians: don't walk") }
                            On(.button, to: .waiting)
                        }
                        In(.waiting) {
                            Entry("wait") { _ in say("Pedestrians: waiting") }
                            Entry(.raise(.requested))
                            On(.carsStopped, to: .crossing)
                            Refuse(.button, "Already pressed: the light will change soon")
                        }
                        In(.crossing, initial: .walk) {
                            Exit("count") { $0.crossings += 1 }
                            Refuse(.button, "Pedestrians are crossing now")
                            OnDone(to: .dontWalk, actions: [.raise(.cleared)])
                            In(.walk) {
                                Entry("walk") { _ in say("Pedestrians: walk") }
                                After(walkTime, to: .flashing)
                            }
                            In(.flashing) {
                                Entry("flash") { _ in say("Pedestrians: flashing don't walk") }
                                After(flashTime, to: .crossed)
                            }
                            In(.crossed, final: true)
                        }
                    }
                }
            }
            In(.service) {
                Entry("flash yellow") { _ in say("Service: both lights flash yellow") }
                On(.resume, to: .resume)
                Refuse(.button, "The crossing is in service: cross with care")
            }
            In(.off, final: true) {
                Entry("off") { _ in say("Off") }
            }
        }
    }
}
