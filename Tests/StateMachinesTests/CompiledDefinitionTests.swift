import Testing

@testable import StateMachines

// A definition compiles once into rule and state records whose buffers one arena owns: these
// tests hold the arena to freeing every buffer and box when the last holder of the definition
// goes, and each rule kind to dispatching as it did, on the indexed path (one-byte events) and
// the scanning path (wide events) alike.

/// Counts the instances alive, so that a test sees a buffer's elements deinitialized.
final class Tracked: @unchecked Sendable {
    nonisolated(unsafe) static var alive = 0
    init() { Tracked.alive += 1 }
    deinit { Tracked.alive -= 1 }
}

enum Door: Hashable, Sendable { case closed, open, locked }
enum Push: Hashable, Sendable { case open, close, lock, knock }
/// The same events, wide: no slot table, so `send` scans.
struct WidePush: Hashable, Sendable {
    let push: Push
    var padding = 0
}

func doorDefinition<Ev: Hashable & Sendable>(_ e: (Push) -> Ev) -> StateMachineDefinition<Door, Ev, [String]> {
    StateMachineDefinition(initial: .closed) {
        In(.closed) {
            Entry { $0.append("enter closed") }
            Exit { $0.append("exit closed") }
            On(e(.open), to: .open) { $0.append("opening") }
            On(e(.lock), to: .locked, when: Guard("never") { _ in false })
            On(e(.lock), to: .locked) { $0.append("locking") }
            On(e(.knock)) { $0.append("knock") }
        }
        In(.open) {
            On(e(.close), to: .closed)
            Refuse(e(.lock), "close it first")
        }
        In(.locked) {
            On(e(.open), to: .open, when: Guard("has key") { _ in false })
        }
    }
}

@Suite(.serialized)
struct CompiledDefinitionTests {
    @Test func theArenaFreesEveryBufferItMadeWhenItGoes() {
        let before = Tracked.alive
        do {
            let arena = BufferArena()
            let buffer = arena.buffer([Tracked(), Tracked(), Tracked()])
            _ = arena.box(Tracked())
            #expect(buffer.count == 3)
            #expect(arena.bufferCount == 1)
            #expect(Tracked.alive == before + 4)
        }
        #expect(Tracked.alive == before)
    }

    @Test func aDefinitionsCompiledFormGoesWithItsLastMachine() {
        weak var arena: BufferArena?
        do {
            let definition = doorDefinition { $0 }
            arena = definition.storage.arena
            var machine = StateMachine(definition, context: [])
            machine.send(.open)
            #expect(arena != nil)
            #expect((arena?.bufferCount ?? 0) > 0)
        }
        #expect(arena == nil)
    }

    @Test func aStatechartsCompiledFormGoesWithIt() {
        weak var arena: BufferArena?
        do {
            let definition = pulseChart { $0 }
            arena = definition.storage.arena
            var machine = StateMachine(definition, context: PulseLog())
            machine.send(.next)
            #expect(arena != nil)
        }
        #expect(arena == nil)
    }

    @Test func rulesCarryTheirKind() {
        // The rules live in the definition's arena: keep the definition alive while they are read.
        let definition = doorDefinition { $0 }
        let kinds = withExtendedLifetime(definition) {
            let rules = definition.storage.engine.rules
            return (0..<rules.count).map { rules[$0].kind }
        }
        #expect(kinds == [.leaves, .leaves, .leaves, .stays, .leaves, .refuses, .leaves])
    }

    @Test(arguments: [false, true])
    func eachRuleKindDispatchesAsBefore(wide: Bool) {
        var fresh = StateMachine(doorDefinition { $0 }, context: [])
        var freshWide = StateMachine(doorDefinition { WidePush(push: $0) }, context: [])
        let pushes: [Push] = [.knock, .open, .lock, .close, .lock, .open, .close]
        let expected = [
            "closed → closed internal", "closed → open", "refused: close it first", "open → closed",
            "closed → locked", #"refused: guards ["has key"]"#, "refused: no transition",
        ]
        for (push, answer) in zip(pushes, expected) {
            let outcome = wide ? shownOutcome(freshWide.send(WidePush(push: push))) : shownOutcome(fresh.send(push))
            #expect(outcome == answer, "\(push)")
        }
        let log = wide ? freshWide.context : fresh.context
        #expect(
            log == [
                "enter closed", "knock", "exit closed", "opening", "enter closed", "exit closed", "locking",
            ])
    }
}

/// An outcome in a few words, the same for narrow and wide events.
func shownOutcome<Ev>(_ outcome: Outcome<Door, Ev>) -> String {
    switch outcome {
    case .transitioned(let transition):
        let kind = transition.isInternal ? " internal" : ""
        return "\(transition.source) → \(transition.target)\(kind)"
    case .refused(let refusal):
        switch refusal.reason {
        case .rejected(let reason): return "refused: \(reason)"
        case .guardFailed(let names): return "refused: guards \(names)"
        case .noTransition: return "refused: no transition"
        default: return "refused"
        }
    }
}
