import ArgumentParser

/// The arguments of the subcommands that read or act on one workflow run (`workflows show`,
/// `workflows cancel`, `workflows fork`): the journal, then the run's key.
struct JournalRunOptions: ParsableArguments {
    @OptionGroup var journal: JournalLocationOptions
    @Argument(help: "The run's key.") var key: String
}
