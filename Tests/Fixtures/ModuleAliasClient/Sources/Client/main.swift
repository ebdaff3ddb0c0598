import BehaviorKitChains
import BehaviorKitCommands
import Chains
import Commands

// `Commands` and `Chains` are the client's modules; BehaviorKit's are renamed here.
let shell = Commands.Shell("make")
let custody = Chains.Custody(["ada", "grace"])
let target = try BehaviorKitChains.Pipeline { BehaviorKitChains.NonEmptyValidator() }.run("all")
let build = BehaviorKitCommands.ClosureCommand("build") { print("ran \(shell.line) \(target)") }
try await BehaviorKitCommands.Transaction("build", steps: [build]).run()
print("held by \(custody.holders.joined(separator: ", "))")
