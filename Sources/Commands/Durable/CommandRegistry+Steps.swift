#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CommandRegistry {
    /// Registers `kind` as a step with an output whose work is closures (which can capture
    /// receivers that are not `Codable`): `execute` returns the output, `compensate` receives it
    /// (`nil` when a crash came before it was written down). Build steps of it with
    /// ``step(_:arguments:)``, so that a run and a recovery use the same closures.
    ///
    /// ```swift
    /// registry.register("bank.charge", arguments: Charge.self, output: PaymentID.self) { charge, context in
    ///     try await bank.charge(charge.cents, idempotencyKey: context.key)
    /// } compensate: { charge, payment, context in
    ///     try await bank.refund(payment ?? bank.payment(idempotencyKey: context.key))
    /// }
    /// let step = try registry.step("bank.charge", arguments: Charge(order: 42, cents: 990))
    /// ```
    public mutating func register<Arguments: Decodable & Sendable, Output: Codable & Sendable>(
        _ kind: String, arguments: Arguments.Type, output: Output.Type,
        execute: @escaping @Sendable (Arguments, DurableContext) async throws -> Output,
        compensate: (@Sendable (Arguments, Output?, DurableContext) async throws -> Void)? = nil
    ) {
        decoders[kind] = { bytes in
            Self.step(
                kind, try JSONDecoder().decode(Arguments.self, from: Data(bytes)), payload: bytes, execute, compensate)
        }
    }

    private static func step<Arguments: Sendable, Output: Codable & Sendable>(
        _ kind: String, _ arguments: Arguments, payload: [UInt8],
        _ execute: @escaping @Sendable (Arguments, DurableContext) async throws -> Output,
        _ compensate: (@Sendable (Arguments, Output?, DurableContext) async throws -> Void)?
    ) -> DurableStep {
        let run: @Sendable (DurableContext) async throws -> [UInt8]? = { context in
            try StepOutput.encode(try await execute(arguments, context), key: context.key)
        }
        var compensation: (@Sendable (DurableContext, [UInt8]?) async throws -> Void)?
        var undo: (@Sendable () async throws -> Void)?
        if let compensate {
            compensation = { context, bytes in
                try await compensate(
                    arguments, try StepOutput.decodeIfPresent(Output.self, from: bytes, key: context.key), context)
            }
            undo = {
                try await compensate(arguments, nil, DurableContext.current ?? DurableContext(key: kind, owner: "none"))
            }
        }
        let command = ClosureCommand(
            kind,
            execute: {
                _ = try await execute(arguments, DurableContext.current ?? DurableContext(key: kind, owner: "none"))
            },
            undo: undo)
        return DurableStep(kind: kind, payload: payload, command: command, run: run, compensation: compensation)
    }

    /// A step of the registered `kind` with `arguments`: the same closures a recovery uses.
    ///
    /// - Throws: ``CommandRegistryError`` when `kind` is not registered or the arguments do
    ///   not encode (or decode as the registered type).
    public func step(_ kind: String, arguments: some Encodable) throws(CommandRegistryError) -> DurableStep {
        try step(for: Self.entry(kind: kind, arguments: arguments, key: kind))
    }
}
