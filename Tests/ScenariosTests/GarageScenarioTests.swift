import Commands
import Scenarios
import Testing

struct GarageScenarioTests {
    @Test func theSuccessTraceMatchesTheArticle() async {
        let (console, recording) = Console.recording()
        await GarageScenario.run(failAPI: false, console: console)
        #expect(
            recording.lines == [
                "Sending the vehicle 'first vehicle' to backend!",
                "Success",
                "Saved the vehicle 'first vehicle' to DB!",
                "This class will append the logfile with a vehicle 'first vehicle'",
                "Transaction started",
                "This class will append the logfile with a vehicle 'first vehicle'",
                "Saved the vehicle 'first vehicle' to DB!",
                "Sending the vehicle 'first vehicle' to backend!",
                "Success",
                "This class will append the logfile with a vehicle 'first vehicle'",
                "This class will append the logfile with a vehicle 'Another Vehicle'",
                "Finished: 5, failed: 0",
            ])
    }

    @Test func theFailureTraceCompensatesInReverse() async {
        let (console, recording) = Console.recording()
        await GarageScenario.run(failAPI: true, console: console)
        #expect(
            recording.lines == [
                "Sending the vehicle 'first vehicle' to backend!",
                "Failure",
                "Saved the vehicle 'first vehicle' to DB!",
                "This class will append the logfile with a vehicle 'first vehicle'",
                "Transaction started",
                "This class will append the logfile with a vehicle 'first vehicle'",
                "Saved the vehicle 'first vehicle' to DB!",
                "Sending the vehicle 'first vehicle' to backend!",
                "Failure",
                "Transaction failed: the backend refused the vehicle 'first vehicle' (id 1)",
                "Deleted the vehicle 'first vehicle' from database",
                "Cannot undo a logging operation",
                "This class will append the logfile with a vehicle 'Another Vehicle'",
                "Finished: 3, failed: 2 (add to API, transaction)",
            ])
    }

    @Test func undoingACompletedRegistrationUndoesItsStepsInReverse() async throws {
        let (console, recording) = Console.recording()
        let vehicle = Garage.Vehicle(id: 7, name: "van")
        let registration = Transaction(
            "register",
            steps: [
                Garage.saveToDB(vehicle, Garage.Database(console: console)),
                Garage.addToAPI(vehicle, Garage.BackendAPI(console: console, fails: false)),
                Garage.log(vehicle, Garage.AuditLog(console: console)),
            ])
        try await registration.run()
        try await registration.undo()
        #expect(
            recording.lines.suffix(3) == [
                "Cannot undo a logging operation",
                "Deleted the vehicle 'van' from backend",
                "Deleted the vehicle 'van' from database",
            ])
    }
}
