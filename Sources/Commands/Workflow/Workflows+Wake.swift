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

extension Workflows {
    /// The safety net of a run waiting for a child's result or a message: it looks again after
    /// ten ``pollInterval``s, in case the wake was lost (the child's worker stopped between
    /// settling it and waking the parent; a sender, between writing the message and waking).
    var childPollInterval: Duration { pollInterval * 10 }

    /// Wakes `parent`, the parent (`nil`: none) of the child run `record`, just settled: a
    /// parent waiting in the child's result is taken up at once, by any worker.
    func wakeParent(of parent: String?, for record: CommandJournalRecord) async {
        guard let parent else { return }
        await wake(parent, for: "its child '\(record.id)' settled")
    }

    /// Wakes the run `key`, just released to wait for the child run `child`, when the child
    /// settled meanwhile: its settlement found the run held, and could not wake it.
    func wakeIfSettled(_ key: String, child: String) async {
        do {
            guard let record = try await journal.record(forKey: child), record.status != .pending else { return }
        } catch {
            invoker.logger?.warning(
                "reading a workflow's child failed; the run looks again when it falls due",
                metadata: ["key": "\(key)", "child": "\(child)", "error": "\(error)"])
            return
        }
        await wake(key, for: "its child '\(child)' settled while it was held")
    }
}
