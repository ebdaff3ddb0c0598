import BehaviorKitSync

extension QueueWorker {
    /// Runs a claimed record to its settlement and counts how it ended; never throws (a
    /// journal error leaves the record to be taken over once its lease expires).
    func settle(_ record: CommandJournalRecord) async {
        let key = record.id
        do {
            if record.entry.kind == DurableTransaction.journalKind {
                let transaction = try invoker.rebuild(record)
                let settlement = try await invoker.keeper.hold(key) {
                    try await transaction.settle(record, startIfUntouched: true)
                }
                counters.withLock { statistics in
                    switch settlement {
                    case .completed: statistics.done += 1
                    case .compensated: statistics.compensated += 1
                    case .failed: statistics.failed += 1
                    }
                }
            } else {
                let step = try invoker.registry.step(for: record.entry)
                do {
                    _ = try await invoker.keeper.hold(key) { try await self.invoker.execute(step, record) }
                    counters.withLock { $0.done += 1 }
                } catch let error where !(error is CommandJournalError) {
                    counters.withLock { $0.failed += 1 }
                }
            }
        } catch is CommandRegistryError {
            counters.withLock { $0.unreadable += 1 }
            try? await invoker.giveBack(key)
        } catch let error as CommandJournalError {
            if case .leaseLost = error {
                counters.withLock { $0.lost += 1 }
            } else {
                recordJournalError(error, key)
            }
        } catch {
            recordJournalError(error, key)
        }
    }

    private func recordJournalError(_ error: any Error, _ key: String) {
        invoker.keeper.drop(key)
        counters.withLock {
            $0.journalErrors += 1
            $0.lastJournalError = "\(error)"
        }
    }
}
