import BehaviorKit
import Commands
import SwiftUIStandIn
import Testing

// SwiftUI (and StoreKit) declare `Transaction` too: in a file that imports one of them and
// BehaviorKit, `Transaction` alone is ambiguous. `SwiftUIStandIn` plays SwiftUI here, which
// Linux does not have. The spellings the docs give: `BehaviorKit.Transaction` or
// `Commands.Transaction` for ours, the module's name for theirs.

struct SwiftUICollisionTests {
    @Test func bothTransactionsAreReachableByTheirModulesNames() async throws {
        var animation = SwiftUIStandIn.Transaction()
        animation.disablesAnimations = true
        let done = ClosureCommand("save") {}
        try await BehaviorKit.Transaction("save", steps: [done]).run()
        try await Commands.Transaction("save again", steps: [done]).run()
        #expect(animation.disablesAnimations)
    }

    @Test func aTypeAliasGivesOursAShortNameOfItsOwn() async throws {
        let saga = Saga("empty", steps: [])
        try await saga.run()
        #expect(saga.name == "empty")
        #expect(CommandsSaga.self == BehaviorKit.Transaction.self)
    }

    @Test func theUmbrellaNamesChainsTypesToo() throws {
        let phone = BehaviorKit.Pipeline { BehaviorKit.LengthValidator(exactly: 3) }
        #expect(try phone.run("abc") == "abc")
    }
}

/// The alias the docs suggest for a module that imports SwiftUI throughout.
typealias Saga = BehaviorKit.Transaction
/// The same, for a module that depends on the `Commands` product alone.
typealias CommandsSaga = Commands.Transaction
