/// A durable step that returns a value: the journal keeps the value, later steps read it from
/// their ``DurableContext``, the step's own compensation receives it, and after a crash
/// recovery uses it instead of running the step again.
///
/// ```swift
/// struct Charge: JournaledStep {
///     static let journalKind = "bank.charge"
///     let order: Int, cents: Int
///     var name: String { "charge order \(order)" }
///     func execute(in context: DurableContext) async throws -> PaymentID {
///         try await Bank.shared.charge(cents, idempotencyKey: context.key)
///     }
///     func compensate(_ payment: PaymentID?, in context: DurableContext) async throws {
///         // `nil` when a crash came before the charge's answer was written down
///         try await Bank.shared.refund(payment ?? Bank.shared.payment(idempotencyKey: context.key))
///     }
/// }
/// let steps = [try DurableStep(Reserve(order: 42)), try DurableStep(Charge(order: 42, cents: 990))]
/// ```
///
/// Register the type (``CommandRegistry/register(_:)-(S.Type)``) so that recovery can
/// bring it back.
public protocol JournaledStep: Codable, Journaled {
    /// What the step returns; the journal keeps it as JSON.
    associatedtype Output: Codable & Sendable

    /// The name shown in logs and errors.
    var name: String { get }

    /// Whether ``compensate(_:in:)`` undoes the step. Defaults to `true`.
    var canCompensate: Bool { get }

    /// Does the work and returns what later steps and the compensation need.
    func execute(in context: DurableContext) async throws -> Output

    /// Undoes the work. `output` is what ``execute(in:)`` returned, or `nil` when the step may
    /// have run but its output was never written down (a crash in between).
    func compensate(_ output: Output?, in context: DurableContext) async throws
}

extension JournaledStep {
    /// Steps can be compensated unless they say otherwise.
    public var canCompensate: Bool { true }
}
