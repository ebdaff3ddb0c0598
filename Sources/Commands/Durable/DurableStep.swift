/// A step of a ``DurableTransaction``: the work to run, and how the journal records it so that
/// recovery can bring it back through a ``CommandRegistry``.
///
/// ```swift
/// let steps = [
///     try DurableStep(Reserve(order: 42)),                                  // a JournaledCommand
///     try DurableStep(Charge(order: 42, cents: 990)),                       // a JournaledStep with an output
///     try DurableStep("garage.save", arguments: vehicle, command: Garage.saveToDB(vehicle, db)),
///     try registry.step("mail.send", arguments: receipt),                   // registered with closures
/// ]
/// ```
public struct DurableStep: Sendable {
    /// The kind the registry decodes the step with.
    public let kind: String
    /// The step's arguments, encoded.
    public let payload: [UInt8]
    /// The step as a command, for names in logs and events.
    public let command: any Command
    /// How often a transaction tries the step before it fails (and the transaction rolls
    /// back): ``RetryPolicy/never`` unless set, or registered for its kind
    /// (``CommandRegistry/setRetryPolicy(_:forKind:)``).
    public var retryPolicy: RetryPolicy = .never

    /// Runs the step; returns its output, encoded, if it has one.
    let run: @Sendable (DurableContext) async throws -> [UInt8]?
    /// Undoes the step, given its recorded output; `nil` when it cannot be undone.
    let compensation: (@Sendable (DurableContext, [UInt8]?) async throws -> Void)?

    /// A step of `command`, recorded under its ``Journaled/journalKind``.
    public init<C: JournaledCommand>(_ command: C) throws(CommandRegistryError) {
        let entry = try CommandRegistry.entry(kind: C.journalKind, arguments: command, key: command.name)
        self.init(kind: entry.kind, payload: entry.payload, command: command)
    }

    /// A step of `command`, recorded as `kind` with `arguments` (registered with
    /// ``CommandRegistry/register(_:arguments:make:)``).
    public init(_ kind: String, arguments: some Encodable, command: any Command) throws(CommandRegistryError) {
        let entry = try CommandRegistry.entry(kind: kind, arguments: arguments, key: command.name)
        self.init(kind: kind, payload: entry.payload, command: command)
    }

    /// A step that returns a value: `step`'s output is journaled, handed to later steps and to
    /// its compensation, and reused by recovery.
    public init<S: JournaledStep>(_ step: S) throws(CommandRegistryError) {
        let entry = try CommandRegistry.entry(kind: S.journalKind, arguments: step, key: step.name)
        self.init(step, payload: entry.payload)
    }

    init<S: JournaledStep>(_ step: S, payload: [UInt8]) {
        let run: @Sendable (DurableContext) async throws -> [UInt8]? = { context in
            try StepOutput.encode(try await step.execute(in: context), key: context.key)
        }
        var compensation: (@Sendable (DurableContext, [UInt8]?) async throws -> Void)?
        if step.canCompensate {
            compensation = { context, bytes in
                try await step.compensate(
                    try StepOutput.decodeIfPresent(S.Output.self, from: bytes, key: context.key), in: context)
            }
        }
        self.init(
            kind: S.journalKind, payload: payload, command: JournaledStepCommand(step: step), run: run,
            compensation: compensation)
    }

    init(kind: String, payload: [UInt8], command: any Command) {
        let run: @Sendable (DurableContext) async throws -> [UInt8]? = { _ in
            try await command.execute()
            return nil
        }
        var compensation: (@Sendable (DurableContext, [UInt8]?) async throws -> Void)?
        if command.canUndo {
            compensation = { _, _ in try await command.undo() }
        }
        self.init(kind: kind, payload: payload, command: command, run: run, compensation: compensation)
    }

    init(
        kind: String, payload: [UInt8], command: any Command,
        run: @escaping @Sendable (DurableContext) async throws -> [UInt8]?,
        compensation: (@Sendable (DurableContext, [UInt8]?) async throws -> Void)?
    ) {
        self.kind = kind
        self.payload = payload
        self.command = command
        self.run = run
        self.compensation = compensation
    }

    /// The step's name.
    public var name: String { command.name }

    /// This step, tried under `policy`: a failed attempt is tried again in the same run, after
    /// the policy's backoff on the worker's clock, while the worker holds the transaction.
    ///
    /// ```swift
    /// let charge = try DurableStep(Charge(order: 42, cents: 990)).retrying(RetryPolicy(maxAttempts: 3))
    /// ```
    public func retrying(_ policy: RetryPolicy) -> DurableStep {
        var step = self
        step.retryPolicy = policy
        return step
    }
}

/// A ``JournaledStep`` seen as a ``Command``: it runs with the ``DurableContext`` of the task
/// (outside a journal, with a context of its own name) and drops its output.
struct JournaledStepCommand<S: JournaledStep>: Command {
    let step: S

    var name: String { step.name }
    var canUndo: Bool { step.canCompensate }

    func execute() async throws {
        _ = try await step.execute(in: DurableContext.current ?? DurableContext(key: step.name, owner: "none"))
    }

    func undo() async throws {
        try await step.compensate(nil, in: DurableContext.current ?? DurableContext(key: step.name, owner: "none"))
    }
}
