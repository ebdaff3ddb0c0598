import Commands
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

extension JournalConsole {
    /// Renders a page; an error shows as a page with its status (its text redacted), and is
    /// logged redacted.
    func page<Context: RequestContext>(
        _ request: Request, _ context: Context, _ render: (ConsoleRequest) async throws -> ConsolePage
    ) async -> Response {
        let consoleRequest = ConsoleRequest(request, now: options.clock.currentDate)
        do {
            return respond(try await render(consoleRequest))
        } catch let error as ConsolePageError {
            return errorPage(error.status, error.message)
        } catch {
            let message = redaction.apply("\(error)")
            context.logger.error("behaviorkit console: \(message)")
            return errorPage(.internalServerError, "The journal could not be read: \(message)")
        }
    }

    /// A page with `status` saying `message`.
    func errorPage(_ status: HTTPResponse.Status, _ message: String) -> Response {
        var body = HTML()
        body.element("p", redaction.apply(message), attributes: "class=\"error\"")
        body.link("Back to the overview", to: "./")
        return respond(ConsolePage(title: "\(status.code) \(status.reasonPhrase)", body: body, status: status))
    }

    /// `page` laid out, as HTML that loads nothing but the console's stylesheet.
    func respond(_ page: ConsolePage) -> Response {
        let html = ConsoleLayout.document(title: page.title, body: page.body, console: self)
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.contentSecurityPolicy] =
            "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; "
            + "base-uri 'none'"
        for (name, value) in [("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer")] {
            if let name = HTTPField.Name(name) { headers[name] = value }
        }
        return Response(status: page.status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}
