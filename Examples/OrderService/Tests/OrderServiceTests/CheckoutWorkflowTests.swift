import BehaviorKitTesting
import Commands
import DurableMachines
import Testing

@testable import OrderService

/// The checkout workflow, run by the workers of two "processes" on one in-memory journal, time
/// on a manual clock: no real sleeps, no timed assertions.
@Suite struct CheckoutWorkflowTests {
    @Test func aCheckoutTakenUpByAnotherProcessCompletesWithEachStepOnce() async throws {
        let fixture = try CheckoutFixture()
        defer { fixture.remove() }
        let order = try await fixture.place("o-1")
        let first = fixture.worker("process-1")
        let handle = try await first.start(order)

        // process-1 reserves and charges, then lets the run go while it waits for the payment.
        #expect(try await first.workflows.runDue() == 1)
        let payments = try fixture.gateway.payments(order: "o-1")
        #expect(payments.count == 1)
        #expect(try fixture.inventory.stock(of: "mug") == 8)
        #expect(try await fixture.orders.instance("o-1")?.state == .paying)
        #expect(try await first.run(of: "o-1")?.state == "waiting for a message")

        // process-1 is gone; the provider confirms, and process-2 finishes the run.
        let second = fixture.worker("process-2")
        try await second.confirm(PaymentConfirmation(payment: payments[0].id), order: "o-1")
        #expect(try await second.workflows.runDue() == 1)
        try #require(try await second.run(of: "o-1")?.record.status == .done)
        let shipment = try await handle.result()

        #expect(shipment.invoice == payments[0].id)
        let run = try #require(try await second.run(of: "o-1"))
        #expect(run.record.status == .done)
        #expect(run.positions.map(\.name) == ["reserve", "charge", PaymentConfirmation.topic, "confirm", "ship"])
        #expect(try await fixture.events(of: "o-1") == [.pay, .confirmPayment, .ship])
        #expect(try await fixture.orders.instance("o-1")?.state == .shipped)
        #expect(try fixture.inventory.stock(of: "mug") == 8)  // reserved once
        #expect(try fixture.gateway.payments(order: "o-1").map(\.refunded) == [false])  // charged once
        #expect(try fixture.carrier.shipment(order: "o-1")?.tracking == shipment.tracking)
    }

    @Test func aPaymentConfirmationSentTwiceIsConsumedOnce() async throws {
        let fixture = try CheckoutFixture()
        defer { fixture.remove() }
        let order = try await fixture.place("o-2")
        let first = fixture.worker("process-1")
        let second = fixture.worker("process-2")
        let handle = try await first.start(order)
        try await first.workflows.runDue()
        let payment = try #require(try fixture.gateway.payments(order: "o-2").first)

        // The webhook delivered twice, through two processes.
        try await first.confirm(PaymentConfirmation(payment: payment.id), order: "o-2")
        try await second.confirm(PaymentConfirmation(payment: payment.id), order: "o-2")
        try await second.workflows.runDue()
        try #require(try await second.run(of: "o-2")?.record.status == .done)
        _ = try await handle.result()

        let run = try #require(try await first.run(of: "o-2"))
        #expect(run.positions.filter { $0.kind == .receive }.count == 1)
        #expect(run.messagesWaiting.isEmpty)
        #expect(try await fixture.events(of: "o-2").filter { $0 == .confirmPayment }.count == 1)
        #expect(try await fixture.orders.instance("o-2")?.context.paymentID == payment.id)
    }

    @Test func aCheckoutWhosePaymentDeadlinePassesIsCompensated() async throws {
        let fixture = try CheckoutFixture()
        defer { fixture.remove() }
        let order = try await fixture.place("o-3")
        let checkout = fixture.worker("process-1")
        let handle = try await checkout.start(order)
        try await checkout.workflows.runDue()
        #expect(try fixture.inventory.stock(of: "mug") == 8)

        // Just before the deadline the run still waits: a worker that takes it up lets it go again.
        await fixture.clock.advance(by: CheckoutFixture.deadline - .seconds(2))
        try await checkout.workflows.runDue()
        #expect(try await checkout.run(of: "o-3")?.record.status == .pending)
        #expect(try fixture.gateway.payments(order: "o-3").map(\.refunded) == [false])

        await fixture.clock.advance(by: .seconds(3))
        try await checkout.workflows.runDue()
        // Settled before its result is asked for: a run still waiting would keep `result()` waiting.
        try #require(try await checkout.run(of: "o-3")?.record.status == .compensated)
        await #expect {
            _ = try await handle.result()
        } throws: { error in
            guard case .compensated(_, let reason)? = error as? WorkflowError else { return false }
            return reason.contains("no payment confirmation")
        }
        let run = try #require(try await checkout.run(of: "o-3"))
        #expect(run.record.status == .compensated)
        #expect(Set(run.compensations.map(\.name)) == ["reserve", "charge"])
        #expect(try fixture.inventory.stock(of: "mug") == 10)  // released
        #expect(try fixture.gateway.payments(order: "o-3").map(\.refunded) == [true])  // refunded
        #expect(try await fixture.orders.instance("o-3")?.state == .cancelled)
        #expect(try fixture.carrier.shipment(order: "o-3") == nil)
    }
}
