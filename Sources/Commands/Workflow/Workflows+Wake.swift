import Logging

extension Workflows {
    /// Makes the run `key` due now if it waits (released, due later), so that a worker takes
    /// it up at once (``CommandJournal/wake(_:)``); a run that waits for something else waits
    /// again. A failure is logged: the run still falls due at its next look.
    func wake(_ key: String, for reason: @autoclosure () -> String) async {
        do {
            _ = try await journal.wake(key)
        } catch {
            invoker.logger?.warning(
                "waking a workflow failed; it looks again when it falls due",
                metadata: ["key": "\(key)", "reason": "\(reason())", "error": "\(error)"])
        }
    }

    /// Wakes the run `key`, just released to wait in a receive on `mailbox`, when a message
    /// no one holds waits there: one sent while the run was held found it held, and could not
    /// wake it. (A message a stopped worker still holds wakes nothing: it is taken at a later
    /// look, once its lease ended.)
    func wakeIfAMessageWaits(_ key: String, in mailbox: String) async {
        do {
            let filter = CommandJournalFilter(statuses: [.pending], queue: mailbox)
            let waiting = try await journal.records(matching: filter, after: nil, limit: 8).records
            guard waiting.contains(where: { $0.owner == nil }) else { return }
        } catch {
            invoker.logger?.warning(
                "reading a workflow's mailbox failed; the run looks again when it falls due",
                metadata: ["key": "\(key)", "mailbox": "\(mailbox)", "error": "\(error)"])
            return
        }
        await wake(key, for: "a message that came while it was held")
    }
}
