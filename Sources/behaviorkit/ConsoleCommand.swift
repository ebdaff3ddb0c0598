import ArgumentParser
import Foundation
import Scenarios

#if Console
import BehaviorKitConsole
import DurableMachines
#endif

/// `behaviorkit console`: the web console on a journal (and a machine store), served alone on
/// 127.0.0.1 behind a random token it prints at start.
struct ConsoleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract: "Serves the web console on a journal: queues, workers, records, cancel and retry.",
        discussion: """
            Listens on 127.0.0.1 unless --host says otherwise, and requires a random token it prints at start, \
            with the URL to open (the token then lives in an HttpOnly cookie). Actions are POSTs carrying a CSRF \
            token; --read-only refuses them. The database's password is never printed, shown or logged. With \
            --machines (a SQLite file or a postgres:// URL) and --machine NAME, the durable machines' instances \
            by state and each key's history.
            """
    )

    @Option(help: "The journal: a SQLite file, or a postgres:// URL.")
    var journal: String

    @Option(help: "A durable machine store: a SQLite file, or a postgres:// URL.")
    var machines: String?

    @Option(help: "A durable machine's name in the --machines store (repeat for several).")
    var machine: [String] = []

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 8080

    @Flag(help: "Show, never act: no action forms, and every action refused.")
    var readOnly = false

    func validate() throws {
        try OptionRange.check("--port", port, in: 0...65_535)
        if machines != nil && machine.isEmpty { throw ValidationError("--machines needs at least one --machine NAME") }
        if machines == nil && !machine.isEmpty { throw ValidationError("--machine needs --machines STORE") }
    }

    func run() async throws {
        #if Console
        try await serve()
        #else
        throw failure(
            "this behaviorkit was built without the web console; build it with the Console trait: "
                + "swift run --traits Console behaviorkit console … (or swift build --traits Console)")
        #endif
    }

    #if Console
    private func serve() async throws {
        let secrets = [journal, machines].compactMap(\.self).compactMap(Self.password(of:))
        let redact = { (text: String) in JournalConsole.redacted(text, secrets: secrets) }
        do {
            try await JournalOperations.withJournal(journal) { journal in
                var store: (any MachineStore)?
                if let machines { store = try await MachineStoreLocation.open(machines) }
                do {
                    let console = JournalConsole(
                        journal: journal,
                        machines: store.map { store in machine.map { ConsoleMachine(name: $0, store: store) } } ?? [],
                        options: JournalConsole.Options(readOnly: readOnly, secrets: secrets))
                    let server = ConsoleServer(console: console, host: host, port: port)
                    let journalName = redact(self.journal)
                    try await server.run { url, _ in
                        StandardStream.output.writeLine("behaviorkit console on \(journalName)")
                        StandardStream.output.writeLine("token: \(server.token)")
                        StandardStream.output.writeLine("open:  \(url)")
                    }
                    try await store?.close()
                } catch {
                    try? await store?.close()
                    throw error
                }
            }
        } catch {
            throw failure(redact("\(error)"))
        }
    }
    #endif

    /// The password in a `postgres://user:password@host` URL, to be hidden wherever it could show.
    static func password(of location: String) -> String? {
        guard JournalLocation.isServerURL(location), let components = URLComponents(string: location) else {
            return nil
        }
        return components.password.flatMap { $0.isEmpty ? nil : $0 }
    }
}
