import BehaviorKitSQLite
import BehaviorKitTesting
import DurableMachines
import GRDB
import StateMachines
import Testing

/// The sample of DurableMachines' "A lifecycle per entity in a server", as written there but for
/// the store's path and the clock: it must compile and do what the text says.
struct DurableMachinesDocSamplesTests {
    enum OrderState: String, Codable { case awaitingPayment, paid, cancelled }
    enum OrderEvent: String, Codable { case pay, cancel }

    @Test func aLifecyclePerEntityInAServer() async throws {
        let folder = try TemporaryFolder()
        let clock = ManualClock()
        let lifecycle = StateMachineDefinition<OrderState, OrderEvent, Int>(initial: .awaitingPayment) {
            In(.awaitingPayment) {
                On(.pay, to: .paid) { $0 += 1 }
                On(.cancel, to: .cancelled)
                After(.seconds(30 * 60), to: .cancelled)  // an unpaid order is cancelled after 30 minutes
            }
            In(.paid)
            In(.cancelled)
        }
        let store = try SQLiteMachineStore(path: folder.path("orders.machines"))
        let orders = DurableMachine("order", definition: lifecycle, store: store, clock: clock)
        try await orders.start("order-42", context: 0)
        let step = try await orders.send(.pay, to: "order-42", id: "request-7")  // step.configuration == [.paid]
        let again = try await orders.send(.pay, to: "order-42", id: "request-7")  // again.isReplay == true
        #expect(step.configuration == [.paid] && !step.isReplay)
        #expect(again.isReplay && again.sequence == step.sequence)
        #expect(try await orders.instance("order-42")?.context == 1)

        // The timer: an unpaid order is cancelled after 30 minutes, by a machine opened anew (a restart).
        try await orders.start("order-43", context: 0)
        try await store.close()
        await clock.advance(by: .seconds(30 * 60))
        let reopened = try SQLiteMachineStore(path: folder.path("orders.machines"))
        let restarted = DurableMachine("order", definition: lifecycle, store: reopened, clock: clock)
        let fired = try await restarted.fireDueTimers()
        #expect(fired.map(\.configuration) == [[.cancelled]])
        #expect(try await restarted.keys(in: .awaitingPayment).isEmpty)
        #expect(try await restarted.history(of: "order-42").count == 2)
        try await reopened.close()
    }
}
