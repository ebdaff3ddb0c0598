import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// The samples of the "Durable work" article, as written there but for the journal (in memory
/// here): each must compile and do what the article says.
struct DurableDocSamplesTests {
    struct PaymentID: Codable, Hashable, Sendable { var value: String }

    final class Bank: Sendable {
        private let state = LockedValue<(charges: [String: PaymentID], refunds: [PaymentID])>(([:], []))
        func charge(_ cents: Int, idempotencyKey: String) -> PaymentID {
            state.withLock { state in
                if let existing = state.charges[idempotencyKey] { return existing }
                let payment = PaymentID(value: "pay-\(state.charges.count + 1)")
                state.charges[idempotencyKey] = payment
                return payment
            }
        }
        func payment(idempotencyKey: String) -> PaymentID {
            state.withLock { $0.charges[idempotencyKey] } ?? .init(value: "none")
        }
        func refund(_ payment: PaymentID) { state.withLock { $0.refunds.append(payment) } }
        var refunds: [PaymentID] { state.withLock { $0.refunds } }
        var charges: Int { state.withLock { $0.charges.count } }
    }

    static let bank = Bank()

    struct Reserve: JournaledCommand {
        static let journalKind = "shop.reserve"
        let order: Int
        var name: String { "reserve order \(order)" }
        func execute() async throws {}
        func undo() async throws {}
    }

    struct Charge: JournaledStep {
        static let journalKind = "bank.charge"
        let order: Int, cents: Int
        var name: String { "charge order \(order)" }
        func execute(in context: DurableContext) async throws -> PaymentID {
            bank.charge(cents, idempotencyKey: context.key)
        }
        func compensate(_ payment: PaymentID?, in context: DurableContext) async throws {
            bank.refund(payment ?? bank.payment(idempotencyKey: context.key))
        }
    }

    struct Remind: JournaledCommand {
        static let journalKind = "shop.remind"
        let order: Int
        var name: String { "remind order \(order)" }
        func execute() async throws {}
        func undo() async throws {}
    }

    @Test func theOverview() async throws {
        let journal = InMemoryCommandJournal()
        var registry = CommandRegistry()
        registry.register(Reserve.self)
        registry.register(Charge.self)
        let worker = JournaledInvoker(journal: journal, registry: registry)
        #expect(try await worker.recover().isEmpty)
        let order = worker.transaction(
            "order", key: "order-42",
            steps: [
                try DurableStep(Reserve(order: 42)), try DurableStep(Charge(order: 42, cents: 990)),
            ])
        let payment = try await order.run().output(ofStep: 1, as: PaymentID.self)
        #expect(payment == Self.bank.payment(idempotencyKey: "order-42/1"))
        let again = try await order.run()
        #expect(again.status == .alreadyCompleted)
        #expect(try again.output(ofStep: 1, as: PaymentID.self) == payment)
    }

    @Test func stepsWithReceiversRegisterClosures() async throws {
        let bank = Bank()
        struct Charge: Codable, Sendable { var order: Int, cents: Int }
        struct Declined: Error {}
        var registry = CommandRegistry()
        registry.register("bank.charge", arguments: Charge.self, output: PaymentID.self) { charge, context in
            bank.charge(charge.cents, idempotencyKey: context.key)
        } compensate: { charge, payment, context in
            bank.refund(payment ?? bank.payment(idempotencyKey: context.key))
        }
        let step = try registry.step("bank.charge", arguments: Charge(order: 42, cents: 990))
        let decline = try DurableStep(
            "bank.decline", arguments: 1, command: ClosureCommand("decline") { throw Declined() })
        let worker = JournaledInvoker(journal: InMemoryCommandJournal(), registry: registry)
        await #expect(throws: TransactionError.self) {
            try await worker.transaction("order", key: "order-42", steps: [step, decline]).run()
        }
        #expect(bank.refunds == [PaymentID(value: "pay-1")], "the refund got the charge's payment id")
    }

    @Test func aDurableQueue() async throws {
        let clock = ManualClock()
        let journal = InMemoryCommandJournal(clock: clock)
        var registry = CommandRegistry()
        registry.register(Reserve.self)
        registry.register(Remind.self)
        let worker = JournaledInvoker(journal: journal, registry: registry, clock: clock)
        let order = worker.transaction("order", key: "order-7", steps: [try DurableStep(Reserve(order: 7))])
        let payments = CommandQueue("payments", journal: journal, concurrency: 16)
        try await payments.enqueue(order)
        try await payments.enqueue(Remind(order: 42), key: "order-42/remind", after: .seconds(86_400))
        let serving = QueueWorker(payments, invoker: worker, slots: 8)
        #expect(try await serving.runDue() == 1)
        await clock.advance(by: .seconds(86_400))
        #expect(try await serving.runDue() == 1)
        #expect(serving.statistics.done == 2)
        #expect(try await journal.unfinished().isEmpty)
    }
}
