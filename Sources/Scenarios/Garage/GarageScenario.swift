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
            ]
        ) { event in
            switch event {
            case .started: console.print("Transaction started")
            case .failed(_, let error): console.print("Transaction failed: \(error)")
            default: break
            }
        }

        let invoker = BatchInvoker(batchSize: batchSize)
        invoker.submit(Garage.addToAPI(first, api))
        invoker.submit(Garage.saveToDB(first, database))
        invoker.submit(Garage.log(first, auditLog))
        invoker.submit(registration)
        invoker.submit(Garage.log(another, auditLog))
        await invoker.idle()

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
