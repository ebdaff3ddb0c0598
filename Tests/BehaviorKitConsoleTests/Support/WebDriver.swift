import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#endif

/// A tiny W3C WebDriver client: chromedriver started on a free port, one headless Chromium
/// session, and the few commands the browser tests need (JSON over HTTP).
final class WebDriver {
    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"

    /// Whether Debian's `chromium` and `chromium-driver` are installed.
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: chromium)
            && FileManager.default.isExecutableFile(atPath: chromedriver)
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    private let process: Process
    private let base: URL
    private let session: String

    private init(process: Process, base: URL, session: String) {
        self.process = process
        self.base = base
        self.session = session
    }

    /// Starts chromedriver and a headless Chromium session.
    static func start() async throws -> WebDriver {
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = Int.random(in: 20_000..<60_000)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: chromedriver)
            process.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            guard let base = URL(string: "http://127.0.0.1:\(port)") else { continue }
            do {
                try await waitUntilReady(base)
                let capabilities: [String: Any] = [
                    "capabilities": [
                        "alwaysMatch": [
                            "browserName": "chrome",
                            "goog:chromeOptions": [
                                "binary": chromium,
                                "args": [
                                    "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000",
                                    "--disable-dev-shm-usage",
                                ],
                            ],
                        ]
                    ]
                ]
                let answer = try await request(base.appendingPathComponent("session"), "POST", capabilities)
                guard let value = answer as? [String: Any], let session = value["sessionId"] as? String else {
                    throw Failure(description: "chromedriver started no session: \(answer ?? "nil")")
                }
                return WebDriver(process: process, base: base, session: session)
            } catch {
                lastError = error
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        throw lastError ?? Failure(description: "chromedriver did not start")
    }

    private static func waitUntilReady(_ base: URL) async throws {
        for _ in 0..<200 {
            if let status = try? await request(base.appendingPathComponent("status"), "GET", nil) as? [String: Any],
                status["ready"] as? Bool == true
            {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure(description: "chromedriver did not answer in 10 s")
    }

    /// Ends the session and stops chromedriver.
    func quit() async {
        _ = try? await Self.request(base.appendingPathComponent("session/\(session)"), "DELETE", nil)
        // SIGKILL: chromedriver inherits the test process's blocked signals, SIGTERM among them.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The text of the element `selector` finds once it `matches`, waiting up to 5 s for a
    /// page that a click started to load; the last text seen otherwise.
    func text(_ selector: String, when matches: (String) -> Bool) async throws -> String {
        var last = ""
        for _ in 0..<100 {
            if let text = try? await text(selector) {
                last = text
                if matches(text) { return text }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return last
    }

    /// Loads `url`.
    func open(_ url: String) async throws {
        _ = try await command("url", "POST", ["url": url])
    }

    /// The page's URL now.
    func currentURL() async throws -> String {
        try await command("url", "GET", nil) as? String ?? ""
    }

    /// The first element `selector` (CSS) finds.
    func element(_ selector: String) async throws -> String {
        let value = try await command("element", "POST", ["using": "css selector", "value": selector])
        guard let found = value as? [String: Any], let id = found.values.first as? String else {
            throw Failure(description: "no element \(selector)")
        }
        return id
    }

    /// The elements `selector` (CSS) finds.
    func elements(_ selector: String) async throws -> [String] {
        let value = try await command("elements", "POST", ["using": "css selector", "value": selector])
        return (value as? [[String: Any]] ?? []).compactMap { $0.values.first as? String }
    }

    /// The rendered text of the element `selector` finds.
    func text(_ selector: String) async throws -> String {
        try await text(ofElement: try await element(selector))
    }

    /// The rendered text of element `id`.
    func text(ofElement id: String) async throws -> String {
        try await command("element/\(id)/text", "GET", nil) as? String ?? ""
    }

    /// Clicks the element `selector` finds.
    func click(_ selector: String) async throws {
        _ = try await command("element/\(try await element(selector))/click", "POST", [:])
    }

    /// Types `text` into the element `selector` finds.
    func type(_ text: String, into selector: String) async throws {
        _ = try await command("element/\(try await element(selector))/value", "POST", ["text": text])
    }

    /// Runs `script` in the page.
    func execute(_ script: String) async throws {
        _ = try await command("execute/sync", "POST", ["script": script, "args": []])
    }

    /// The text of an open alert, or `nil` when none is open.
    func alertText() async -> String? {
        try? await command("alert/text", "GET", nil) as? String
    }

    /// A screenshot of the page, as PNG.
    func screenshot() async throws -> Data {
        guard let base64 = try await command("screenshot", "GET", nil) as? String,
            let data = Data(base64Encoded: base64)
        else { throw Failure(description: "no screenshot") }
        return data
    }

    private func command(_ path: String, _ method: String, _ body: [String: Any]?) async throws -> Any? {
        try await Self.request(base.appendingPathComponent("session/\(session)/\(path)"), method, body)
    }

    /// Sends one WebDriver command; returns its `value`, or throws its error.
    private static func request(_ url: URL, _ method: String, _ body: [String: Any]?) async throws -> Any? {
        let (_, data) = try await HTTP.send(url.absoluteString, method: method, json: body)
        let json = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any]
        let value = json?["value"]
        if let error = value as? [String: Any], let code = error["error"] as? String {
            throw Failure(description: "WebDriver \(method) \(url.path): \(code): \(error["message"] ?? "")")
        }
        return value is NSNull ? nil : value
    }
}

/// Plain HTTP requests from the tests, on AsyncHTTPClient.
enum HTTP {
    /// Sends `method url` with `json` as its body (when given); returns the status and the body.
    static func send(
        _ url: String, method: String = "GET", json: [String: Any]? = nil, headers: [(String, String)] = []
    ) async throws -> (status: Int, body: Data) {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json)))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 64 << 20)
        return (Int(response.status.code), Data(body.readableBytesView))
    }
}
