import StateMachines

enum Light: String, Hashable, Sendable, Codable, CaseIterable {
    case green, yellow, red, off
}

enum Signal: String, Hashable, Sendable, Codable {
    case next, fault, repair, shutdown
}
