import Testing

/// `behaviorkit lifecycle`: a durable lifecycle survives a child process killed with SIGKILL.
struct LifecycleCommandTests {
    @Test func aPaidParcelIsPackedShippedAndDeliveredAfterItsPayerWasKilled() throws {
        let result = try CLIRunner.run(["lifecycle"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(
            result.standardOutput == """
                A child process started parcel p1 and paid it (request pay-1); it was killed (SIGKILL)
                before the payment's effect ran.
                Retried request pay-1: answered from the history, step 2.
                This process ran the 1 effect the child left: p1 is shipped.
                An hour later, 1 timer fired: p1 is delivered.
                History of p1:
                  1. start → placed
                  2. event pay → paid
                  3. effect paid#0@1 sent note → paid
                  4. effect paid#0@1 sent packed → shipped
                  5. timer shipped#0@2 → delivered

                """)
    }
}
