import Hummingbird
public import Logging
import NIOCore

/// A console served alone, as `behaviorkit console` serves it: on 127.0.0.1 unless told
/// otherwise, behind ``ConsoleTokenMiddleware`` with a random token.
///
/// ```swift
/// let server = ConsoleServer(console: JournalConsole(journal: journal))
/// try await server.run { url in print("open \(url)") }
/// ```
public struct ConsoleServer: Sendable {
    /// The console served.
    public let console: JournalConsole
    /// The address it listens on.
    public let host: String
    /// The port it listens on; 0 picks a free one (``run(onStart:)`` says which).
    public let port: Int
    /// The token every request must carry (see ``ConsoleTokenMiddleware``).
    public let token: String
    /// Where the server logs.
    public let logger: Logger

    /// A server for `console` on `host` and `port`, requiring `token` (a new random one by default).
    public init(
        console: JournalConsole, host: String = "127.0.0.1", port: Int = 8080,
        token: String = ConsoleServer.randomToken(),
        logger: Logger = Logger(label: "behaviorkit.console")
    ) {
        self.console = console
        self.host = host
        self.port = port
        self.token = token
        self.logger = logger
    }

    /// 32 random bytes from the system's secure generator, as 64 hexadecimal digits.
    public static func randomToken() -> String {
        ConsoleSecret.random()
    }

    /// Serves the console until the task is cancelled or the process gets SIGINT or SIGTERM;
    /// once listening, calls `onStart` with the URL to open (it carries the token) and the port.
    public func run(onStart: @escaping @Sendable (_ url: String, _ port: Int) async -> Void = { _, _ in }) async throws
    {
        let router = Router()
        console.addRoutes(to: router.group().add(middleware: ConsoleTokenMiddleware<BasicRequestContext>(token: token)))
        let host = self.host
        let token = self.token
        let app = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                await onStart("http://\(shown):\(port)/?token=\(token)", port)
            }, logger: logger)
        try await app.runService()
    }
}
