/// What ``JournaledInvoker/run(_:as:)`` did.
public enum CommandJournalRunResult: Sendable, Hashable {
    /// The command ran and finished; its record is done.
    case executed
    /// A record with this key was already done: the command did not run again.
    case alreadyDone
}
