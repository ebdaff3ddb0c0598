/// Commands that share a coalescing key but do not fold into one: done in order, undone in
/// reverse, under the first one's name.
struct CoalescedCommands: Command {
    var commands: [any Command]

    var name: String { commands.first?.name ?? "" }
    var coalescingKey: String? { commands.first?.coalescingKey }

    func execute() async throws {
        try await Transaction(name, steps: commands).run()
    }

    func undo() async throws {
        try await Transaction(name, steps: commands).revert()
    }

    /// Folds `next` into the newest command if it can, else keeps it alongside.
    static func coalesce(_ top: any Command, with next: any Command) -> any Command {
        if var group = top as? CoalescedCommands {
            if let last = group.commands.last, let folded = last.coalesced(with: next) {
                group.commands[group.commands.count - 1] = folded
            } else {
                group.commands.append(next)
            }
            return group
        }
        return top.coalesced(with: next) ?? CoalescedCommands(commands: [top, next])
    }
}
