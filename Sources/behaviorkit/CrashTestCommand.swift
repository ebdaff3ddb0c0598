import ArgumentParser
import Foundation
import Scenarios

struct CrashTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-test",
        abstract: "Kills a child journaling commands with SIGKILL, recovers, and checks the journal.",
        shouldDisplay: false
    )

    @Option(help: "How many times to kill the child (1 to 1000).")
    var kills = 25

    @Option(help: "The seed of the kill moments and of the failing transaction steps.")
    var seed: UInt64 = 1

    @Option(help: "The folder for the journal and the ledger (emptied first).")
    var directory = FileManager.default.temporaryDirectory.appendingPathComponent("behaviorkit-crash-test").path

    @Flag(help: .hidden)
    var child = false

    @Option(help: .hidden)
    var round = 1

    func validate() throws {
        try OptionRange.check("--kills", kills, in: 1...1_000)
        // The child's keys and seeds are computed from the round (round * 1000 + worker).
        try OptionRange.check("--round", round, in: 1...1_000_000)
        guard !directory.isEmpty else { throw ValidationError("--directory must name a folder") }
    }

    func run() async throws {
        if child {
            try await CrashTest.runChild(directory: directory, round: round, seed: seed)
            return
        }
        try FleetDriverProcess.failOnViolations(
            try await CrashTest.run(
                kills: kills, seed: seed, directory: directory, executable: FleetDriverProcess.executable,
                console: .standardOutput))
    }
}
