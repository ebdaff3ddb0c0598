import ArgumentParser
import Foundation
import Scenarios

struct JournalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Lists the records of a durable command journal with their status.",
        discussion: """
            Prints one line per record, in sequence order: its number, status (pending, done, failed, \
            compensated), idempotency key and command kind, then the counts. The file may also be an application's \
            own GRDB database holding the journal's table. A file that is not a journal, or is corrupt or \
            truncated, is an error naming the file; it is never changed.
            """
    )

    @Argument(help: "The journal's SQLite file, or its postgres:// URL (as given to garage --journal).")
    var path: String

    func run() async throws {
        guard JournalLocation.isServerURL(path) || FileManager.default.fileExists(atPath: path) else {
            throw failure("command journal \(path): no such file")
        }
        do {
            try await JournalListing.run(path: path, console: .standardOutput)
        } catch {
            throw failure("\(error)")
        }
    }
}
