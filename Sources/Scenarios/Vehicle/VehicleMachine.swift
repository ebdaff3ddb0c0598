public import StateMachines

/// The vehicle's states (scenario 4). The caller never sees them: it sends events.
public enum VehicleState: String, Hashable, Sendable, Codable, CaseIterable {
    case stopped, moving, parking
}

/// What the driver can do.
public enum VehicleEvent: String, Hashable, Sendable, Codable, CaseIterable {
    case accelerate, brake, park
}

/// The vehicle's data: its speed.
public struct Vehicle: Hashable, Sendable, Codable {
    public var speed: Int

    public init(speed: Int = 0) {
        self.speed = speed
    }
}

/// The vehicle of scenario 4 as a state machine definition.
public enum VehicleMachine {
    /// How long automatic parking takes.
    public static let parkingTime: Duration = .seconds(5)

    /// The definition, with its messages handed to `say`.
    public static func definition(
        say: @escaping @Sendable (String) -> Void = { _ in }
    ) -> StateMachineDefinition<VehicleState, VehicleEvent, Vehicle> {
        StateMachineDefinition(initial: .stopped) {
            In(.stopped) {
                On(.accelerate, to: .moving) { $0.speed += 5 }
                Refuse(.brake, "Can't brake... Vehicle is already stopped!")
                On(.park, to: .parking)
            }
            In(.moving) {
                On(
                    .brake, to: .stopped, when: Guard("speed ≤ 5") { $0.speed <= 5 },
                    actions: [
                        Action("brake to a stop") {
                            $0.speed -= 5
                            say("Vehicle braked to a stop")
                        }
                    ])
                On(.brake, actions: [Action("slow down") { $0.speed -= 5 }])
                On(.accelerate, actions: [Action("speed up") { $0.speed += 5 }])
                Refuse(.park, "Can't park the vehicle while it's moving. You need to stop first")
            }
            In(.parking) {
                Entry("start parking") { _ in say("Vehicle is now parking") }
                After(
                    parkingTime, to: .stopped,
                    actions: [Action("finish parking") { _ in say("Vehicle has stopped parking") }])
                On(
                    .brake, to: .stopped,
                    actions: [Action("abort parking") { _ in say("Automatic parking has been aborted") }])
                Refuse(.accelerate, "Vehicle is automatically parking, you can't accelerate!")
                Refuse(.park, "Vehicle is already parking")
            }
        }
    }
}
