/// A command that a journal can keep and a ``CommandRegistry`` can bring back: its arguments
/// are `Codable`, and its ``Journaled/journalKind`` names its type in the journal.
///
/// ```swift
/// struct Charge: JournaledCommand {
///     static let journalKind = "bank.charge"
///     let order: Int, cents: Int
///     var name: String { "charge order \(order)" }
///     func execute() async throws { try await Bank.shared.charge(order, cents) }
///     func undo() async throws { try await Bank.shared.refund(order) }
/// }
/// ```
///
/// A command that needs a receiver it cannot encode (a connection, a console) registers a
/// factory instead: ``CommandRegistry/register(_:arguments:make:)``.
public protocol JournaledCommand: Command, Codable, Journaled {}
