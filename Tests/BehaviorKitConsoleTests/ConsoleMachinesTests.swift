import BehaviorKitConsole
import BehaviorKitTesting
import Commands
import DurableMachines
import HTTPTypes
import StateMachines
import Testing

@Suite("Console machines")
struct ConsoleMachinesTests {
    enum Parcel: String, Codable, Sendable { case packed, shipped, delivered }
    enum Move: String, Codable, Sendable { case ship, deliver }

    static let parcel = StateMachineDefinition<Parcel, Move, Int>(initial: .packed) {
        In(.packed) { On(.ship, to: .shipped) }
        In(.shipped) { On(.deliver, to: .delivered) }
        In(.delivered)
    }

    /// A console on two machines sharing one store: one registered with its definition, one by name alone.
    static func harness() async throws -> ConsoleHarness {
        let store = InMemoryMachineStore()
        let parcels = DurableMachine("parcels", definition: parcel, store: store)
        try await parcels.start("p1", context: 0)
        try await parcels.send(.ship, to: "p1")
        try await parcels.start("p2", context: 0)
        try await parcels.start(ConsoleFixture.hostileKey, context: 0)
        let returns = DurableMachine("returns", definition: parcel, store: store)
        try await returns.start("r1", context: 0)
        try await returns.send(.ship, to: "r1")
        return try await ConsoleHarness(machines: [
            ConsoleMachine(parcels), ConsoleMachine(name: "returns", store: store),
        ])
    }

    @Test("The machines page shows each machine's instances by state, and the keys in a state")
    func byState() async throws {
        let harness = try await Self.harness()
        try await harness.test { client in
            let page = try await client.page("/ops/machines")
            #expect(page.contains(">parcels</h2>") && page.contains(">returns</h2>"))
            #expect(page.contains(">packed</a></td><td class=\"number\">2</td>"))
            let packed = try await client.page("/ops/machines?machine=parcels&state=packed")
            #expect(page.contains("Machines") && packed.contains(">p2</a>") && !packed.contains(">p1</a>"))
            #expect(
                packed.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !packed.contains(ConsoleFixture.hostileKey))
            _ = try await client.page("/ops/machines?machine=nope&state=packed", status: .notFound)
        }
    }

    @Test("A key's history is drawn on the statechart when the definition is registered, a list otherwise")
    func history() async throws {
        let harness = try await Self.harness()
        try await harness.test { client in
            let drawn = try await client.page("/ops/machine?machine=parcels&key=p1")
            #expect(drawn.contains("<strong id=\"states\">shipped</strong>"))
            #expect(drawn.contains("<div class=\"state current\" data-state=\"shipped\">"))
            #expect(drawn.contains("<div class=\"state visited\" data-state=\"packed\">"))
            #expect(drawn.contains("<div class=\"state\" data-state=\"delivered\">"))
            #expect(drawn.contains("ship → shipped"))
            let listed = try await client.page("/ops/machine?machine=returns&key=r1")
            #expect(listed.contains("id=\"history\"") && !listed.contains("id=\"chart\""))
            _ = try await client.page("/ops/machine?machine=parcels&key=nope", status: .notFound)
        }
    }
}
