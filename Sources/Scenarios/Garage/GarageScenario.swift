import BehaviorKitSQLite
import Commands

/// Scenario 1: five commands queued on a batch invoker of size 5, one of them a transaction.
public enum GarageScenario {
    /// The batch size of the article's invoker.
    public static let batchSize = 5

    /// Queues the article's five commands; the fifth fills the batch, so all five run. Ends
    /// with the finished and failed counts (and the names of the failed commands).
    ///
    /// - Parameter failAPI: makes the backend fail every send.
    public static func run(failAPI: Bool, console: Console) async {
        let api = Garage.BackendAPI(console: console, fails: failAPI)
        let database = Garage.Database(console: console)
        let auditLog = Garage.AuditLog(console: console)
        let first = Garage.Vehicle(id: 1, name: "first vehicle")
        let another = Garage.Vehicle(id: 2, name: "Another Vehicle")

        let registration = Transaction(
            "transaction",
            steps: [
                Garage.log(first, auditLog), Garage.saveToDB(first, database), Garage.addToAPI(first, api),
                Garage.log(first, auditLog),
            ], observer: transactionEvents(console))

        let invoker = BatchInvoker(batchSize: batchSize)
        invoker.submit(Garage.addToAPI(first, api))
        invoker.submit(Garage.saveToDB(first, database))
        invoker.submit(Garage.log(first, auditLog))
        invoker.submit(registration)
        invoker.submit(Garage.log(another, auditLog))
        await invoker.idle()

        printCounts(invoker, console)
    }

    /// The same run on the durable journal at `journalPath` (a SQLite file, or a `postgres://`
    /// URL): first settles what stopped runs
    /// left unfinished (and says so; a stopped run's own `run<N>` marker is settled silently),
    /// then journals every command and the transaction's steps,
    /// and ends with the journal's counts. Each run's keys start with `run<N>/`; runs in
    /// several processes at once take different numbers.
    ///
    /// - Parameter busyTimeout: how long a write waits for another process's lock.
    /// - Throws: the journal's error naming the file (or the server) when it cannot be opened or
    ///   written (a full disk, a lock held too long): a journal that failed is never reported as
    ///   a run that finished.
    public static func run(
        failAPI: Bool, journalPath: String, busyTimeout: Duration = .seconds(10), console: Console
    ) async throws {
        let api = Garage.BackendAPI(console: console, fails: failAPI)
        let database = Garage.Database(console: console)
        let auditLog = Garage.AuditLog(console: console)
        let journal = try await JournalLocation.open(journalPath, busyTimeout: busyTimeout)
        let registry = GarageJournal.registry(api: api, database: database, auditLog: auditLog)
        let journalInvoker = JournaledInvoker(
            journal: journal, registry: registry, owner: JournaledInvoker.uniqueOwner(prefix: "garage"),
            leaseDuration: .seconds(5))
        try await GarageJournal.settleStoppedRunMarkers(journalInvoker)
        let report = try await journalInvoker.recover()
        let recovery = report.isEmpty ? "nothing to recover" : report.description
        for (index, line) in recovery.split(separator: "\n").enumerated() {
            console.print(index == 0 ? "Journal: " + line : String(line))
        }
        let run = try await GarageJournal.claimRun(journalInvoker)
        let first = Garage.Vehicle(id: 1, name: "first vehicle")
        let another = Garage.Vehicle(id: 2, name: "Another Vehicle")

        func journaled(
            _ kind: String, _ vehicle: Garage.Vehicle, _ command: any Command, _ number: Int
        ) throws
            -> any Command
        {
            let key = "run\(run)/\(number)"
            let entry = try CommandRegistry.entry(kind: kind, arguments: vehicle, key: key)
            return GarageJournal.Journaled(command: command, entry: entry, invoker: journalInvoker)
        }
        let registration = journalInvoker.transaction(
            "transaction", key: "run\(run)/4",
            steps: [
                try DurableStep("garage.log", arguments: first, command: Garage.log(first, auditLog)),
                try DurableStep("garage.saveToDB", arguments: first, command: Garage.saveToDB(first, database)),
                try DurableStep("garage.addToAPI", arguments: first, command: Garage.addToAPI(first, api)),
                try DurableStep("garage.log", arguments: first, command: Garage.log(first, auditLog)),
            ], observer: transactionEvents(console))

        let invoker = BatchInvoker(batchSize: batchSize)
        invoker.submit(try journaled("garage.addToAPI", first, Garage.addToAPI(first, api), 1))
        invoker.submit(try journaled("garage.saveToDB", first, Garage.saveToDB(first, database), 2))
        invoker.submit(try journaled("garage.log", first, Garage.log(first, auditLog), 3))
        invoker.submit(registration)
        invoker.submit(try journaled("garage.log", another, Garage.log(another, auditLog), 5))
        await invoker.idle()
        if let failure = GarageJournal.journalFailure(invoker.failed) { throw failure }

        printCounts(invoker, console)
        console.print("Journal: " + GarageJournal.summary(try await journal.allRecords()))
    }

    /// What both runs print of their transaction: its start, and its failure with the error.
    static func transactionEvents(_ console: Console) -> @Sendable (TransactionEvent) -> Void {
        { event in
            switch event {
            case .started: console.print("Transaction started")
            case .failed(_, let error): console.print("Transaction failed: \(error)")
            default: break
            }
        }
    }

    /// How both runs end: the finished and failed counts, and the failed commands' names.
    static func printCounts(_ invoker: BatchInvoker<some Clock<Duration>>, _ console: Console) {
        let failed = invoker.failed.map(\.command.name)
        let names = failed.isEmpty ? "" : " (\(failed.joined(separator: ", ")))"
        console.print("Finished: \(invoker.finishedCount), failed: \(invoker.failedCount)\(names)")
    }

    /// The tour's stop: the run where the backend succeeds.
    public static let tourStop = TourStop(command: "garage", title: "Garage: commands, a transaction, a batch invoker")
    {
        console in
        await run(failAPI: false, console: console)
    }
}
