import ArgumentParser
import Scenarios

/// Starts the tool: a closed pipe on standard output or error then fails the write (which
/// ``StandardStream`` ignores) instead of killing the process with `SIGPIPE`.
@main
enum EntryPoint {
    static func main() async {
        StandardStream.ignoreBrokenPipes()
        await BehaviorKitCommand.main()
    }
}
