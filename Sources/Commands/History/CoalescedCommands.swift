/// Commands that share a coalescing key but do not fold into one: done in order, undone in
/// reverse, under the first one's name.
struct CoalescedCommands: Command {
    var commands: [any Command]

    var name: String { commands.first?.name ?? "" }
    var coalescingKey: String? { commands.first?.coalescingKey }
    /// Every command dropped out (each folded into nothing).
    var isObsolete: Bool { commands.allSatisfy(\.isObsolete) }

    func execute() async throws {
        try await Transaction(name, steps: commands).run()
    }

    func undo() async throws {
        try await Transaction(name, steps: commands).revert()
    }

    /// Folds `next` into the newest command if it can, else keeps it alongside; a command that
    /// folds into an obsolete one is dropped (the result is obsolete when nothing is left).
    static func coalesce(_ top: any Command, with next: any Command) -> any Command {
        if var group = top as? CoalescedCommands {
            if let last = group.commands.last, let folded = last.coalesced(with: next) {
                if folded.isObsolete {
                    group.commands.removeLast()
                } else {
                    group.commands[group.commands.count - 1] = folded
                }
            } else if !next.isObsolete {
                group.commands.append(next)
            }
            return group
        }
        if let folded = top.coalesced(with: next) { return folded }
        return next.isObsolete ? top : CoalescedCommands(commands: [top, next])
    }
}
