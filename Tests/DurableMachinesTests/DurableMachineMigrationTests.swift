import BehaviorKitTesting
import DurableMachines
import Foundation
import StateMachines
import Testing

struct DurableMachineMigrationTests {
    enum Old: String, Codable, Sendable { case draft, sent }
    enum New: String, Codable, Sendable { case draft, submitted }
    enum Step: String, Codable, Sendable { case submit, reopen }

    static let old = StateMachineDefinition<Old, Step, Int>(initial: .draft) {
        In(.draft) { On(.submit, to: .sent) }
        In(.sent)
    }
    static let new = StateMachineDefinition<New, Step, Int>(initial: .draft) {
        In(.draft) { On(.submit, to: .submitted) }
        In(.submitted) { On(.reopen, to: .draft) }
    }

    @Test func aRenamedStateIsATypedErrorUntilAMigrateHookReadsIt() async throws {
        let store = InMemoryMachineStore()
        let before = DurableMachine("doc", definition: Self.old, store: store)
        try await before.start("d1", context: 3)
        try await before.send(.submit, to: "d1")

        let strict = DurableMachine("doc", definition: Self.new, store: store)
        await #expect(throws: DurableMachineError.unknownStates(MachineKey(machine: "doc", key: "d1"), ["sent"])) {
            try await strict.send(.reopen, to: "d1")
        }

        let migrating = DurableMachine("doc", definition: Self.new, store: store) { bytes in
            let text = String(decoding: bytes, as: UTF8.self).replacing("\"sent\"", with: "\"submitted\"")
            return try JSONDecoder().decode(MachineSnapshot<New, Int>.self, from: Data(text.utf8))
        }
        let step = try await migrating.send(.reopen, to: "d1")
        #expect(step.configuration == [.draft])
        #expect(try await migrating.instance("d1")?.context == 3)
        // The step stored the new snapshot: the strict machine reads it now.
        #expect(try await strict.instance("d1")?.state == .draft)
    }
}
