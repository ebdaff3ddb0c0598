import Foundation
import StateMachines
import Testing

/// `Transition`, `Outcome` and `Refusal` as JSON: the form written, every case read back, and
/// a clear error for a form this library does not write.
struct ValueCodingTests {
    typealias LightTransition = Transition<Light, Signal>
    typealias LightOutcome = Outcome<Light, Signal>
    typealias LightRefusal = Refusal<Light, Signal>

    static let triggers: [Trigger<Signal>] = [
        .event(.next), .timer(.seconds(3)), .timer(.milliseconds(250)), .raised(.tick), .eventless, .done,
    ]

    static let reasons: [LightRefusal.Reason] = [
        .noTransition, .guardFailed(["ticked", "at night"]), .rejected("nothing to repair"), .finalState,
        .endlessLoop(100), .stopped, .reentrant,
    ]

    func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func roundTrip<Value: Codable & Equatable>(_ value: Value) throws -> Value {
        try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(value))
    }

    @Test(arguments: triggers)
    func everyTriggerRoundTrips(_ trigger: Trigger<Signal>) throws {
        let transition = LightTransition(source: .green, target: .yellow, trigger: trigger, isInternal: false)
        #expect(try roundTrip(transition) == transition)
        #expect(try roundTrip(LightOutcome.transitioned(transition)) == .transitioned(transition))
    }

    @Test(arguments: reasons)
    func everyReasonRoundTrips(_ reason: LightRefusal.Reason) throws {
        let refusal = LightRefusal(state: .yellow, event: .repair, reason: reason)
        #expect(try roundTrip(refusal) == refusal)
        #expect(try roundTrip(LightOutcome.refused(refusal)) == .refused(refusal))
    }

    @Test func aTransitionIsWrittenWithItsTriggerByName() throws {
        var machine = StateMachine(trafficLight, context: Trace())
        let outcome = machine.send(.next)
        #expect(
            try json(outcome)
                == #"{"case":"transitioned","transition":{"isInternal":false,"source":"green","target":"yellow","#
                + #""trigger":{"case":"event","event":"next"}}}"#)
        let timer = LightTransition(source: .yellow, target: .red, trigger: .timer(.seconds(3)), isInternal: false)
        #expect(
            try json(timer)
                == #"{"isInternal":false,"source":"yellow","target":"red","#
                + #""trigger":{"case":"timer","delayNanoseconds":3000000000}}"#)
    }

    @Test func aRefusalIsWrittenWithItsReasonAndItsMessage() throws {
        var machine = StateMachine(trafficLight, context: Trace())
        _ = machine.send(.next)
        let refusal = try #require(machine.send(.repair).refusal)
        #expect(
            try json(refusal)
                == #"{"event":"repair","message":"nothing to repair","reason":{"case":"rejected","#
                + #""reason":"nothing to repair"},"state":"yellow"}"#)
        let guarded = LightRefusal(state: .red, event: .next, reason: .guardFailed(["ticked"]))
        #expect(
            try json(LightOutcome.refused(guarded))
                == #"{"case":"refused","refusal":{"event":"next","message":"event 'next' in state 'red' refused by "#
                + #"guard 'ticked'","reason":{"case":"guardFailed","guards":["ticked"]},"state":"red"}}"#)
    }

    @Test func aDelayIsKeptToTheNanosecond() throws {
        let odd = Duration.seconds(2) + .nanoseconds(7)
        let transition = LightTransition(source: .red, target: .green, trigger: .timer(odd), isInternal: false)
        #expect(try roundTrip(transition).trigger == .timer(odd))
    }

    @Test func anUnknownCaseIsNamedWithTheKnownOnes() throws {
        let text = #"{"source":"green","target":"red","isInternal":false,"trigger":{"case":"teleport"}}"#
        do {
            _ = try JSONDecoder().decode(LightTransition.self, from: Data(text.utf8))
            Issue.record("decoded an unknown trigger")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(
                context.debugDescription
                    == "unknown case 'teleport'; expected one of 'event', 'timer', 'raised', 'eventless', 'done'")
        }
    }

    @Test func aMissingPayloadIsADecodingError() {
        let text = #"{"state":"red","event":"next","reason":{"case":"guardFailed"}}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(LightRefusal.self, from: Data(text.utf8))
        }
    }

    /// A refusal's `Codable` conformance is written by hand (it also writes its message): a
    /// stored property added to it must be added to the conformance too, or this fails; a
    /// transition's is the synthesized one.
    @Test func everyStoredPropertyIsEncoded() throws {
        let transition = LightTransition(source: .green, target: .yellow, trigger: .eventless, isInternal: false)
        let refusal = LightRefusal(state: .red, event: .next, reason: .stopped)
        let transitionKeys = try JSONSerialization.jsonObject(with: JSONEncoder().encode(transition)) as? [String: Any]
        let refusalKeys = try JSONSerialization.jsonObject(with: JSONEncoder().encode(refusal)) as? [String: Any]
        #expect(transitionKeys?.count == Mirror(reflecting: transition).children.count)
        #expect(refusalKeys?.count == Mirror(reflecting: refusal).children.count + 1)
    }
}
