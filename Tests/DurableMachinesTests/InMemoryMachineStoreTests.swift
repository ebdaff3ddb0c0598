import BehaviorKitTesting
import DurableMachines
import Testing

struct InMemoryMachineStoreTests {
    @Test func passesTheMachineStoreConformanceKit() async throws {
        try await MachineStoreConformance.check { InMemoryMachineStore() }
    }
}
