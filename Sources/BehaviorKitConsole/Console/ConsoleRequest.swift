import Foundation
import HTTPTypes
import Hummingbird

/// What a page is rendered from: the request's query fields, the time now, and the console.
struct ConsoleRequest: Sendable {
    let query: [String: String]
    let now: Date

    init(_ request: Request, now: Date) {
        self.init(query: QueryString.parse(request.uri.query ?? ""), now: now)
    }

    /// The fields `query` (a form's, say) at `now`.
    init(query: [String: String], now: Date) {
        self.query = query
        self.now = now
    }

    /// The query field `name`, or `nil` when it is missing or empty.
    subscript(_ name: String) -> String? {
        guard let value = query[name], !value.isEmpty else { return nil }
        return value
    }
}

/// A page that cannot be shown as asked: a missing key, a bad filter. Its message is shown
/// (escaped) with its status.
struct ConsolePageError: Error {
    let status: HTTPResponse.Status
    let message: String
}

/// A rendered page: its title and body, laid out by ``ConsoleLayout``.
struct ConsolePage: Sendable {
    var title: String
    var body: HTML
    var status: HTTPResponse.Status = .ok
}
