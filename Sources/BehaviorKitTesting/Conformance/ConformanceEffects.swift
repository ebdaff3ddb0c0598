import BehaviorKitSync
import Commands

/// Steps and commands whose effects are written to a log: "+name" when run, "-name" when
/// undone. A step returns "out-<name>"; a name "y<0" also reads step 0's output ("+y(out-x)"),
/// and its undo shows its own output ("-y(out-y)"). A name starting with "!" fails; one
/// starting with "~<n>" fails its first `n` runs; one starting with "@" throws
/// `RetryAfter(.seconds(5), reason: "not yet")` on its first attempt.
final class ConformanceEffects: Sendable {
    struct Arguments: Codable, Sendable { var name: String }

    struct Failure: Error, CustomStringConvertible {
        let name: String
        var description: String { "effect \(name) fails" }
    }

    private let effects = LockedValue<[String]>([])
    private let calls = LockedValue<[String: Int]>([:])
    var log: [String] { effects.withLock { $0 } }

    var registry: CommandRegistry {
        var registry = CommandRegistry()
        registry.register("test.effect", arguments: Arguments.self, output: String.self) { [self] arguments, context in
            try self.run(arguments.name, context)
        } compensate: { [self] arguments, output, _ in
            self.effects.withLock { $0.append("-\(Self.base(arguments.name))" + (output.map { "(\($0))" } ?? "")) }
        }
        return registry
    }

    private func run(_ name: String, _ context: DurableContext) throws -> String {
        let base = Self.base(name)
        if name.hasPrefix("!") { throw Failure(name: name) }
        if name.hasPrefix("~"), let failures = Int(name.dropFirst().prefix(while: \.isNumber)) {
            let call = calls.withLock { calls in
                calls[name, default: 0] += 1
                return calls[name, default: 0]
            }
            if call <= failures { throw Failure(name: name) }
        }
        if name.hasPrefix("@") && context.attempt <= 1 { throw RetryAfter(.seconds(5), reason: "not yet") }
        var line = "+\(base)"
        if let marker = name.firstIndex(of: "<"), let step = Int(name[name.index(after: marker)...]) {
            line += "(\(try context.output(ofStep: step, as: String.self)))"
        }
        effects.withLock { $0.append(line) }
        return "out-\(base)"
    }

    private static func base(_ name: String) -> String {
        String(name.drop { "!~@0123456789".contains($0) }.prefix { $0 != "<" })
    }

    func command(_ name: String) -> any Command {
        let registry = self.registry
        return (try? registry.step("test.effect", arguments: Arguments(name: name)).command)
            ?? ClosureCommand(name) {}
    }

    func entry(_ name: String) throws -> CommandJournalEntry {
        try CommandRegistry.entry(kind: "test.effect", arguments: Arguments(name: name), key: name)
    }

    func step(_ name: String) throws -> DurableStep {
        try registry.step("test.effect", arguments: Arguments(name: name))
    }
}

extension CommandJournalConformance {
    /// New effects, and a worker on `journal` (leases on `clock`, as `owner`) that runs them.
    static func invoking(
        _ journal: any CommandJournalManagement, _ clock: ManualClock,
        owner: String = JournaledInvoker.uniqueOwner()
    ) -> (ConformanceEffects, JournaledInvoker) {
        let effects = ConformanceEffects()
        return (effects, JournaledInvoker(journal: journal, registry: effects.registry, owner: owner, clock: clock))
    }

    static func entry(_ key: String) -> CommandJournalEntry {
        CommandJournalEntry(idempotencyKey: key, kind: "test.\(key)", payload: Array(key.utf8))
    }

    /// The entry of a durable transaction `key`, of the kind `cancel(_:reason:)` takes for one.
    static func transaction(_ key: String, payload: [UInt8] = []) -> CommandJournalEntry {
        CommandJournalEntry(idempotencyKey: key, kind: CommandJournalCancellation.transactionKind, payload: payload)
    }

    /// Begins each of `keys` under `lease`, in order.
    static func begin(_ journal: any CommandJournalManagement, _ keys: String...) async throws {
        for key in keys { _ = try await journal.begin(entry(key), lease: lease) }
    }

    /// Begins the root `key` under `lease`, and appends its first child ("<key>/0"), pending.
    static func beginWithAChild(_ journal: any CommandJournalManagement, _ key: String) async throws {
        _ = try await journal.begin(entry(key), lease: lease)
        _ = try await journal.append(child(key, 0), lease: lease)
    }

    /// Begins the durable transaction `key` under `lease` and settles its first step ("<key>/0")
    /// done with `output`; answers the lease of that attempt.
    static func beginTransactionWithADoneStep(
        _ journal: any CommandJournalManagement, _ key: String, output: [UInt8]?
    ) async throws -> JournalLease {
        let begun = try await journal.begin(transaction(key, payload: [1]), lease: lease).record
        let attempt = lease.fenced(by: begun)
        try await journal.settle([.settle(child(key, 0), as: .done(output: output))], lease: attempt)
        return attempt
    }

    static func child(_ parent: String, _ index: Int) -> CommandJournalEntry {
        CommandJournalEntry(idempotencyKey: "\(parent)/\(index)", kind: "step", parentKey: parent)
    }

    static func expect(_ condition: Bool, _ check: String, _ detail: @autoclosure () -> String) throws {
        if !condition { throw CommandJournalConformanceFailure(check: check, detail: detail()) }
    }

    static func failure(_ check: String, _ detail: String) -> CommandJournalConformanceFailure {
        CommandJournalConformanceFailure(check: check, detail: detail)
    }

    /// Runs `body` and checks that it throws `expected`.
    static func expectError(
        _ expected: CommandJournalError, _ check: String, _ what: String, _ body: () async throws -> Void
    ) async throws {
        do {
            try await body()
        } catch let error as CommandJournalError {
            try expect(error == expected, check, "\(what) threw \(error), expected \(expected)")
            return
        }
        throw failure(check, "\(what) did not throw \(expected)")
    }
}

/// A rule of `CommandJournal` that a journal broke, with what it did instead.
public struct CommandJournalConformanceFailure: Error, CustomStringConvertible, Sendable {
    /// The rule checked.
    public let check: String
    /// What the journal did.
    public let detail: String

    /// "<check>: <detail>".
    public var description: String { "\(check): \(detail)" }
}
