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
            group.commands.add(next, folded: group.commands.last?.coalesced(with: next))
            return group
        }
        if let folded = top.coalesced(with: next) { return folded }
        return next.isObsolete ? top : CoalescedCommands(commands: [top, next])
    }
}

extension [any Command] {
    /// Adds `next`, done after the last command: `folded` (the last and `next` folded into one)
    /// replaces the last, or removes it when obsolete; without one, `next` is appended unless
    /// it is obsolete.
    mutating func add(_ next: any Command, folded: (any Command)?) {
        if let folded {
            if folded.isObsolete {
                removeLast()
            } else {
                self[count - 1] = folded
            }
        } else if !next.isObsolete {
            append(next)
        }
    }
}
