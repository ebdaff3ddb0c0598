import BehaviorKitConsole
import BehaviorKitTesting
import Commands
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore

/// A console on a seeded in-memory journal, served through HummingbirdTesting's router client.
struct ConsoleHarness {
    let journal: InMemoryCommandJournal
    let clock: ManualClock
    let console: JournalConsole

    init(
        machines: [ConsoleMachine] = [],
        options: (ManualClock) -> JournalConsole.Options = { JournalConsole.Options(clock: $0) }
    ) async throws {
        clock = ManualClock()
        journal = InMemoryCommandJournal(clock: clock)
        try await ConsoleFixture.seed(journal)
        console = JournalConsole(journal: journal, machines: machines, options: options(clock))
    }

    /// Runs `body` against an app serving the console under `/ops`.
    func test<Value: Sendable>(
        logger: Logger? = nil, token: String? = nil, _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        let router = Router()
        let ops = router.group("ops")
        if let token { ops.add(middleware: ConsoleTokenMiddleware<BasicRequestContext>(token: token)) }
        console.addRoutes(to: ops)
        let app = Application(router: router, logger: logger)
        return try await app.test(.router, body)
    }
}

extension TestClientProtocol {
    /// The body of `GET uri`, checked to answer `status`.
    func page(_ uri: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) async throws -> String {
        try await execute(uri: uri, method: .get, headers: headers) { response in
            guard response.status == status else {
                throw ConsoleTestError(
                    "GET \(uri): \(response.status), expected \(status): \(String(buffer: response.body))")
            }
            return String(buffer: response.body)
        }
    }

    /// `POST uri` with a form body of `fields`.
    func post(_ uri: String, _ fields: [String: String]) async throws -> TestResponse {
        let body = fields.sorted { $0.key < $1.key }.map { "\(encode($0.key))=\(encode($0.value))" }.joined(
            separator: "&")
        var headers = HTTPFields()
        headers[.contentType] = "application/x-www-form-urlencoded"
        return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    private func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}

/// The CSRF token in a page's action form.
func csrfToken(in page: String) throws -> String {
    guard let match = page.firstMatch(of: /name="csrf" value="([0-9a-f]{64})"/) else {
        throw ConsoleTestError("the page has no CSRF token")
    }
    return String(match.1)
}

struct ConsoleTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
