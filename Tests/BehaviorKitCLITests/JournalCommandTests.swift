import Foundation
import Testing

struct JournalCommandTests {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("JournalCommandTests-\(UUID().uuidString).sqlite").path

    @Test func garageOnAJournalPrintsTheSameTraceAndTheJournalListsIt() throws {
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let garage = try CLIRunner.run(["garage", "--journal", path])
        #expect(garage.exitCode == 0)
        let plain = try CLIRunner.run(["garage"])
        #expect(
            garage.standardOutput
                == "Journal: nothing to recover\n" + plain.standardOutput + "Journal: 10 records: 10 done\n")

        let failing = try CLIRunner.run(["garage", "--fail-api", "--journal", path])
        #expect(failing.exitCode == 0)
        #expect(failing.standardOutput.hasSuffix("Journal: 19 records: 14 done, 2 failed, 3 compensated\n"))

        let listing = try CLIRunner.run(["journal", path])
        #expect(listing.exitCode == 0)
        #expect(
            listing.standardOutput == """
                #1  done        run1      garage.run
                #2  done        run1/1    garage.addToAPI
                #3  done        run1/2    garage.saveToDB
                #4  done        run1/3    garage.log
                #5  done        run1/4    behaviorkit.transaction
                #6  done        run1/4/0  garage.log
                #7  done        run1/4/1  garage.saveToDB
                #8  done        run1/4/2  garage.addToAPI
                #9  done        run1/4/3  garage.log
                #10 done        run1/5    garage.log
                #11 done        run2      garage.run
                #12 failed      run2/1    garage.addToAPI (the backend refused the vehicle 'first vehicle' (id 1))
                #13 done        run2/2    garage.saveToDB
                #14 done        run2/3    garage.log
                #15 compensated run2/4    behaviorkit.transaction
                #16 compensated run2/4/0  garage.log
                #17 compensated run2/4/1  garage.saveToDB
                #18 failed      run2/4/2  garage.addToAPI (the backend refused the vehicle 'first vehicle' (id 1))
                #19 done        run2/5    garage.log
                19 records: 14 done, 2 failed, 3 compensated

                """)
    }

    @Test func aFileThatIsNotAJournalIsAnErrorNamingIt() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("not a database at all, just some text".utf8).write(to: URL(fileURLWithPath: path))
        let result = try CLIRunner.run(["journal", path])
        #expect(result.exitCode == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(
            result.standardError == """
                error: command journal \(path): not a SQLite database (file is not a database); the file is left \
                as it is: restore it from a backup, or move it away to start a new journal

                """)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not a database at all, just some text")
    }

    @Test func aMissingFileIsAnError() throws {
        let result = try CLIRunner.run(["journal", path])
        #expect(result.exitCode == 1)
        #expect(result.standardError == "error: command journal \(path): no such file\n")
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
