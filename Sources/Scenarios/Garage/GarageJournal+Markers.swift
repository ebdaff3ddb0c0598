import Commands

extension GarageJournal {
    /// The kind of the `run<N>` markers that number the runs.
    static let runMarkerKind = "garage.run"

    /// Settles the `run<N>` markers that runs killed between writing and settling them left
    /// pending, once their owner's lease has ended. No command is registered for a marker
    /// (there is nothing to run), so recovery could not settle one: it would report it as
    /// unreadable on every later run. A marker still under a live lease (a run under way, or
    /// one killed less than a lease ago) is left to its owner, or to a later run.
    ///
    /// - Returns: how many markers were settled.
    @discardableResult
    static func settleStoppedRunMarkers(_ invoker: JournaledInvoker) async throws -> Int {
        var settled = 0
        for record in try await invoker.journal.allRecords()
        where record.entry.kind == runMarkerKind && record.entry.parentKey == nil && record.status == .pending {
            guard case .resumed = try await invoker.journal.begin(record.entry, lease: invoker.lease) else { continue }
            try await invoker.journal.settle(record.entry.idempotencyKey, as: .done(output: nil), lease: invoker.lease)
            settled += 1
        }
        return settled
    }
}
