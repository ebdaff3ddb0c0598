import Testing

struct GarageCommandTests {
    @Test func printsTheSuccessTrace() throws {
        let result = try CLIRunner.run(["garage"])
        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput == """
                Sending the vehicle 'first vehicle' to backend!
                Success
                Saved the vehicle 'first vehicle' to DB!
                This class will append the logfile with a vehicle 'first vehicle'
                Transaction started
                This class will append the logfile with a vehicle 'first vehicle'
                Saved the vehicle 'first vehicle' to DB!
                Sending the vehicle 'first vehicle' to backend!
                Success
                This class will append the logfile with a vehicle 'first vehicle'
                This class will append the logfile with a vehicle 'Another Vehicle'
                Finished: 5, failed: 0

                """)
    }

    @Test func failAPIPrintsTheFailureTraceWithReverseCompensation() throws {
        let result = try CLIRunner.run(["garage", "--fail-api"])
        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput == """
                Sending the vehicle 'first vehicle' to backend!
                Failure
                Saved the vehicle 'first vehicle' to DB!
                This class will append the logfile with a vehicle 'first vehicle'
                Transaction started
                This class will append the logfile with a vehicle 'first vehicle'
                Saved the vehicle 'first vehicle' to DB!
                Sending the vehicle 'first vehicle' to backend!
                Failure
                Transaction failed: the backend refused the vehicle 'first vehicle' (id 1)
                Deleted the vehicle 'first vehicle' from database
                Cannot undo a logging operation
                This class will append the logfile with a vehicle 'Another Vehicle'
                Finished: 3, failed: 2 (add to API, transaction)

                """)
    }
}
