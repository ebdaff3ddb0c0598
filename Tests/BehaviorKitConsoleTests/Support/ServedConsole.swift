import BehaviorKitConsole
import Foundation
import Logging

/// A ``ConsoleServer`` running in this process on 127.0.0.1, on a free port.
struct ServedConsole {
    let task: Task<Void, any Error>
    /// The URL with the token, as `behaviorkit console` prints it.
    let url: String
    /// The root of the console, without the token.
    let root: String
    let token: String

    static func start(_ console: JournalConsole) async throws -> ServedConsole {
        // Quiet: cancelling the server at the end of a test makes Hummingbird log its shutdown as errors.
        var logger = Logger(label: "console-browser-tests")
        logger.logLevel = .critical
        let server = ConsoleServer(console: console, host: "127.0.0.1", port: 0, logger: logger)
        let (started, continuation) = AsyncStream.makeStream(of: (String, Int).self)
        let task = Task {
            try await server.run { url, port in
                continuation.yield((url, port))
                continuation.finish()
            }
        }
        var iterator = started.makeAsyncIterator()
        guard let (url, port) = await iterator.next() else {
            task.cancel()
            throw ConsoleTestError("the console server did not start")
        }
        return ServedConsole(task: task, url: url, root: "http://127.0.0.1:\(port)/", token: server.token)
    }

    func stop() async {
        task.cancel()
        _ = await task.result
    }
}

/// Where the browser tests save their screenshots: `$BEHAVIORKIT_SCREENSHOTS`, or
/// `.build/console-screenshots` in the package.
enum Screenshots {
    static let directory: URL = {
        if let path = ProcessInfo.processInfo.environment["BEHAVIORKIT_SCREENSHOTS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return package.appendingPathComponent(".build/console-screenshots")
    }()

    static func save(_ png: Data, as name: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("\(name).png")
        try png.write(to: file)
        print("screenshot: \(file.path)")
    }
}
