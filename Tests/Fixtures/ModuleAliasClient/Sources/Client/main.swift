import BehaviorKitCommands
import Commands

// `Commands` is the client's module; BehaviorKit's is `BehaviorKitCommands` here.
let shell = Commands.Shell("make")
let build = BehaviorKitCommands.ClosureCommand("build") { print("ran \(shell.line)") }
try await BehaviorKitCommands.Transaction("build", steps: [build]).run()
