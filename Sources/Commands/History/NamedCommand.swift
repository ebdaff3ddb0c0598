/// A command under another name: what ``UndoHistory/setActionName(_:)`` keeps in place of a step.
struct NamedCommand: Command {
    let command: any Command
    let name: String

    /// `command` named `name` (a renamed step is not wrapped twice).
    static func naming(_ command: any Command, _ name: String) -> any Command {
        if let named = command as? NamedCommand { return NamedCommand(command: named.command, name: name) }
        return NamedCommand(command: command, name: name)
    }

    var canUndo: Bool { command.canUndo }
    var coalescingKey: String? { command.coalescingKey }
    var isObsolete: Bool { command.isObsolete }

    func execute() async throws { try await command.execute() }
    func undo() async throws { try await command.undo() }

    /// Folds as the command does, keeping the name.
    func coalesced(with next: any Command) -> (any Command)? {
        command.coalesced(with: next).map { NamedCommand(command: $0, name: name) }
    }
}
