import ArgumentParser

/// The options of the fleets that run on a command journal (`fleet` and `workflow-fleet`):
/// where the journal is, and the command that faults its PostgreSQL server.
struct FleetJournalOptions: ParsableArguments {
    @Option(help: "The journal: a SQLite file (created if missing) or a postgres:// URL.")
    var journal: String?

    @Option(
        help: ArgumentHelp(
            "A shell command that faults the PostgreSQL server: run with 'terminate' once and 'restart' twice.",
            valueName: "command"))
    var restartDatabase: String?
}
