import BehaviorKitSQLite
import BehaviorKitSync
import Commands
import Foundation

/// What the crash test's child does, and what recovery needs to bring it back: commands whose
/// effect is a key in a ledger (a second SQLite file), and transactions of such steps.
enum CrashTestWork {
    struct Arguments: Codable, Sendable { var key: String }

    struct StepFailed: Error, CustomStringConvertible {
        let key: String
        var description: String { "step \(key) fails on purpose" }
    }

    typealias Ledger = DiskCache<String, Bool>

    static func journalPath(_ directory: String) -> String { directory + "/journal.sqlite" }

    /// The worker identity of round `round`'s child: the parent, which saw it killed, takes
    /// its work over at once.
    static func owner(round: Int) -> String { "crash-child-\(round)" }
    static func ledgerPath(_ directory: String) -> String { directory + "/ledger.sqlite" }

    /// Writes `key` into the ledger; undo removes it. Both are idempotent.
    static func effect(_ key: String, _ ledger: Ledger) -> any Command {
        ClosureCommand("effect \(key)") {
            try await ledger.store(true, for: key)
        } undo: {
            try await ledger.remove(key)
        }
    }

    /// Always fails: the step that makes a transaction roll back.
    static func failing(_ key: String) -> any Command {
        ClosureCommand("fail \(key)") {
            throw StepFailed(key: key)
        } undo: {
        }
    }

    static func registry(_ ledger: Ledger) -> CommandRegistry {
        var registry = CommandRegistry()
        registry.register("crash.effect", arguments: Arguments.self) { effect($0.key, ledger) }
        registry.register("crash.fail", arguments: Arguments.self) { failing($0.key) }
        return registry
    }

    static func step(_ kind: String, _ key: String, _ ledger: Ledger) throws -> DurableStep {
        let command = kind == "crash.fail" ? failing(key) : effect(key, ledger)
        return try DurableStep(kind, arguments: Arguments(key: key), command: command)
    }

    /// The child: eight workers journal commands and durable transactions until killed,
    /// writing "ack <key>" once a command is durably done and "tx <key> <status>" once a
    /// transaction settled.
    static func runChild(directory: String, round: Int, seed: UInt64) async throws {
        let journal = try SQLiteCommandJournal(path: journalPath(directory))
        let ledger = try Ledger(path: ledgerPath(directory))
        let invoker = JournaledInvoker(journal: journal, registry: registry(ledger), owner: owner(round: round))
        acknowledge("ready")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var random = SplitMix64(seed: seed &+ UInt64(round * 1000 + worker))
                    for index in 0..<100_000 {
                        let key = "r\(round)-w\(worker)-\(index)"
                        if index % 4 == 3 {
                            let recovery: DurableTransactionRecovery = (index / 4) % 2 == 0 ? .compensate : .complete
                            let fails = random.nextUnit() < 0.25
                            try await transaction(key, invoker, ledger, recovery: recovery, fails: fails)
                        } else {
                            try await invoker.perform(
                                effect(key, ledger), kind: "crash.effect", arguments: Arguments(key: key), key: key)
                            acknowledge("ack \(key)")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    private static func transaction(
        _ key: String, _ invoker: JournaledInvoker, _ ledger: Ledger, recovery: DurableTransactionRecovery,
        fails: Bool
    ) async throws {
        let steps = try [
            step("crash.effect", key + "/e0", ledger), step("crash.effect", key + "/e1", ledger),
            step(fails ? "crash.fail" : "crash.effect", key + "/e2", ledger),
        ]
        do {
            try await invoker.transaction("crash", key: key, recovery: recovery, steps: steps).run()
            acknowledge("tx \(key) done")
        } catch is TransactionError {
            acknowledge("tx \(key) compensated")
        }
    }

    /// One `write` of one line: unbuffered, so that a kill loses no acknowledged line.
    static func acknowledge(_ line: String) {
        StandardStream.output.writeLine(line)
    }
}
