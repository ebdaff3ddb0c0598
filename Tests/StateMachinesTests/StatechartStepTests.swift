import StateMachines
import Testing

/// Run to completion: eventless transitions, raised events, the microstep bound, events with
/// payloads, `can`, conflicts between regions.
struct StatechartStepTests {
    enum Order: Hashable, Sendable, Codable { case open, checking, approved, review, paid, cancelled }
    enum Checkout: PayloadEvent {
        case pay(cents: Int), cancel, receipt, audit
        enum Kind: Hashable, Sendable { case pay, cancel, receipt, audit }
        var kind: Kind {
            switch self {
            case .pay: .pay
            case .cancel: .cancel
            case .receipt: .receipt
            case .audit: .audit
            }
        }
    }
    struct Cart: Hashable, Sendable { var total = 990, paid = 0, steps: [String] = [] }

    let checkout = StateMachineDefinition<Order, Checkout, Cart>(initial: .open) {
        In(.open) {
            On(
                .pay, to: .checking,
                when: Guard("enough") { cart, event in
                    if case .pay(let cents) = event { return cents >= cart.total }
                    return false
                }
            ) { cart, event in
                if case .pay(let cents) = event { cart.paid = cents }
            }
            Refuse(.pay, "not enough money")
            On(.cancel, to: .cancelled)
        }
        In(.checking) {
            Entry("saw") { cart, event in cart.steps.append("entered checking on \(String(describing: event))") }
            Always(to: .approved, when: Guard("small") { $0.paid < 10_000 })
            Always(to: .review)
        }
        In(.approved) {
            Entry(.raise(.receipt))
            Entry("second") { $0.steps.append("approved entry") }
            On(.receipt, to: .paid) { $0.steps.append("receipt") }
        }
        In(.review) {}
        In(.paid, final: true)
        In(.cancelled, final: true)
    }

    @Test func rulesMatchAnEventByItsKindAndGuardsAndActionsSeeThePayload() {
        var machine = StateMachine(checkout, context: Cart())
        let low = machine.send(.pay(cents: 100))
        #expect(low.refusal?.reason == .rejected("not enough money"))
        var seen: [Trigger<Checkout>] = []
        let outcome = machine.send(.pay(cents: 1_000)) { seen.append($0.trigger) }
        #expect(outcome.transition?.trigger == .event(.pay(cents: 1_000)))
        #expect(machine.context.paid == 1_000)
        #expect(
            machine.context.steps.first
                == "entered checking on Optional(StateMachinesTests.StatechartStepTests.Checkout.pay(cents: 1000))")
        // Eventless to approved; the raised receipt is taken before `send` returns.
        #expect(seen == [.event(.pay(cents: 1_000)), .eventless, .raised(.receipt)])
        #expect(machine.state == .paid)
        #expect(machine.context.steps.suffix(2) == ["approved entry", "receipt"])
    }

    @Test func eventlessTransitionsAreTriedInOrder() {
        var machine = StateMachine(checkout, context: Cart(total: 0))
        machine.send(.pay(cents: 20_000))
        #expect(machine.state == .review)
    }

    @Test func exactEventRuleOnAPayloadEventStillMatchesExactly() {
        var machine = StateMachine(checkout, context: Cart())
        #expect(machine.can(.cancel))
        #expect(machine.send(.cancel).transition?.target == .cancelled)
    }

    @Test func canAnswersWithoutRunningActions() {
        let machine = StateMachine(checkout, context: Cart())
        #expect(machine.can(.pay(cents: 990)))
        #expect(!machine.can(.pay(cents: 10)))  // refused by a Refuse
        #expect(!machine.can(.receipt))
        #expect(machine.context.paid == 0)
        #expect(machine.acceptedEvents == [.cancel])
    }

    @Test func endlessEventlessLoopEndsWithAClearRefusal() {
        let looping = StateMachineDefinition<Order, Checkout, Cart>(initial: .open, microstepLimit: 50) {
            In(.open) { On(.audit, to: .checking) }
            In(.checking) { Always(to: .review) }
            In(.review) { Always(to: .checking) }
        }
        var machine = StateMachine(looping, context: Cart())
        let outcome = machine.send(.audit)
        #expect(outcome.refusal?.reason == .endlessLoop(50))
        #expect(outcome.refusal?.description.contains("did not settle after 50 steps") == true)
        #expect(machine.send(.audit).refusal?.reason == .noTransition)  // the machine still answers
    }

    @Test func raisedEventsRunBeforeTheNextExternalEventInOrder() {
        let raising = StateMachineDefinition<Order, Checkout, Cart>(initial: .open) {
            In(.open) {
                On(
                    .audit,
                    actions: [.raise(.receipt), .raise(.cancel), Action("after raising") { $0.steps.append("a") }])
                On(.receipt) { $0.steps.append("receipt") }
                On(.cancel, to: .cancelled) { $0.steps.append("cancel") }
            }
            In(.cancelled, final: true)
        }
        var machine = StateMachine(raising, context: Cart())
        machine.send(.audit)
        #expect(machine.context.steps == ["a", "receipt", "cancel"])
        #expect(machine.isFinished)
    }

    @Test func inAConflictTheTransitionFromTheDeeperSourceWins() {
        enum Q: Hashable, Sendable { case p, r1, x1, r2, x2, out, y1 }
        enum V: Hashable, Sendable { case go }
        let definition = StateMachineDefinition<Q, V, [String]>(initial: .p) {
            Parallel(.p) {
                On(.go, to: .out) { $0.append("p→out") }
                In(.r1, initial: .x1) {
                    In(.x1) { On(.go, to: .y1) { $0.append("x1→y1") } }
                    In(.y1)
                }
                In(.r2, initial: .x2) {
                    In(.x2) { On(.go, to: .out) { $0.append("x2→out") } }
                }
            }
            In(.out)
        }
        var machine = StateMachine(definition, context: [])
        machine.send(.go)
        // x1→y1 is selected in r1; x2→out in r2 exits r1 too, and x2 is no descendant of x1, so
        // the earlier one in document order, x1→y1, preempts it.
        #expect(machine.context == ["x1→y1"])
        #expect(machine.configuration == [.p, .r1, .y1, .r2, .x2])
    }

    @Test func anAncestorRuleSelectedByTwoRegionsIsTakenOnce() {
        enum Q: Hashable, Sendable { case p, r1, r2, out }
        enum V: Hashable, Sendable { case go }
        let definition = StateMachineDefinition<Q, V, Int>(initial: .p) {
            Parallel(.p) {
                On(.go, to: .out) { $0 += 1 }
                In(.r1)
                In(.r2)
            }
            In(.out)
        }
        var machine = StateMachine(definition, context: 0)
        machine.send(.go)
        #expect(machine.context == 1)
        #expect(machine.configuration == [.out])
    }
}
