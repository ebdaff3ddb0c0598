import BehaviorKit
import BehaviorKitSync
import Commands
import ConsoleKit
import Testing

// ConsoleKit (re-exported by Vapor) declares `Command`, `CommandError` and a type `Commands`, so
// in a file that imports it, `Command` is ambiguous and `Commands.Transaction` is looked up in
// ConsoleKit's type. The spellings the docs give: `BehaviorKit.Command` (any Swift 6), and
// `Commands::Command` (Swift 6.3's module selectors).

/// A BehaviorKit command in a file that imports ConsoleKit.
struct Reserve: BehaviorKit.Command {
    let stock: Stock
    var name: String { "reserve" }
    func execute() async throws { stock.reserve(1) }
    func undo() async throws { stock.reserve(-1) }
}

/// A ConsoleKit command beside it, as a Vapor app has them: it runs a BehaviorKit transaction.
struct CheckoutCommand: ConsoleKit.AsyncCommand {
    struct Signature: CommandSignature {
        init() {}
    }

    let stock: Stock
    var help: String { "Reserves the stock, then fails to charge: the reservation is undone." }

    func run(using context: CommandContext, signature: Signature) async throws {
        try await checkout(stock)
    }
}

/// A synchronous ConsoleKit command, for ConsoleKit's own `Commands` type.
struct VersionCommand: ConsoleKit.Command {
    struct Signature: CommandSignature {
        init() {}
    }

    var help: String { "Prints the version." }

    func run(using context: CommandContext, signature: Signature) throws {}
}

/// The receiver: the stock reserved so far.
final class Stock: Sendable {
    private let count = LockedValue(0)
    var reserved: Int { count.withLock { $0 } }
    func reserve(_ change: Int) { count.withLock { $0 += change } }
}

struct Declined: Error, CustomStringConvertible {
    var description: String { "card declined" }
}

func checkout(_ stock: Stock) async throws {
    let charge = ClosureCommand("charge") { throw Declined() }
    try await BehaviorKit.Transaction("checkout", steps: [Reserve(stock: stock), charge]).run()
}

struct ConsoleKitCollisionTests {
    @Test func behaviorKitQualifiedNamesWorkBesideConsoleKit() async throws {
        let stock = Stock()
        let error = await #expect(throws: BehaviorKit.TransactionError.self) { try await checkout(stock) }
        #expect(error?.description == "transaction 'checkout' failed at step 2 'charge': card declined")
        #expect(stock.reserved == 0)
        let refusal: BehaviorKit.CommandError = .cannotUndo(command: "log")
        #expect(refusal.description == "the command 'log' cannot be undone")
    }

    @Test func aConsoleKitCommandRunsABehaviorKitTransaction() async throws {
        let stock = Stock()
        var commands = AsyncCommands()
        commands.use(CheckoutCommand(stock: stock), as: "checkout")
        await #expect(throws: BehaviorKit.TransactionError.self) {
            try await Terminal().run(commands.group(), input: CommandInput(arguments: ["app", "checkout"]))
        }
        #expect(stock.reserved == 0)
    }

    @Test func consoleKitsOwnNamesStillMeanConsoleKits() {
        var group = ConsoleKit.Commands()
        group.use(VersionCommand(), as: "version")
        #expect(group.commands.keys.sorted() == ["version"])
        let unknown: ConsoleKit.CommandError = .unknownInput("x")
        #expect("\(unknown)".contains("x"))
    }

    #if compiler(>=6.3)
    @Test func moduleSelectorsNameTheCommandsModule() async throws {
        let steps: [any Commands::Command] = [Reserve(stock: Stock())]
        let transaction = Commands::Transaction("reserve", steps: steps)
        try await transaction.run()
        #expect(steps.map(\.name) == ["reserve"])
    }
    #endif
}
