import Commands
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// What a person can do from a record's page: each a `POST` form carrying the console's CSRF
/// token and the record's key.
enum ConsoleAction: String, CaseIterable, Sendable {
    /// Cancel a pending record (``CommandJournalManagement/cancel(_:reason:)``).
    case cancel
    /// Retry a failed or compensated record (``CommandJournalManagement/retry(_:)``).
    case retry

    var label: String {
        switch self {
        case .cancel: "Cancel"
        case .retry: "Retry"
        }
    }
}

extension JournalConsole {
    /// Performs `action` when the console allows actions and the form carries the CSRF token,
    /// then sends the browser back to the record's page; refuses with 403 otherwise.
    func perform<Context: RequestContext>(
        _ action: ConsoleAction, _ request: Request, _ context: Context
    ) async
        -> Response
    {
        guard !options.readOnly else {
            return errorPage(.forbidden, "This console is read-only: it takes no action.")
        }
        let fields: [String: String]
        do {
            let body = try await request.body.collect(upTo: 64 * 1024)
            fields = QueryString.parse(String(buffer: body))
        } catch {
            return errorPage(.badRequest, "The form could not be read (at most 64 KiB).")
        }
        guard ConsoleSecret.matches(fields["csrf"], csrfToken) else {
            return errorPage(.forbidden, "The form carries no valid CSRF token: reload the page and try again.")
        }
        guard let key = fields["key"], !key.isEmpty else {
            return errorPage(.badRequest, "key: the form names no record.")
        }
        do {
            let record: CommandJournalRecord
            switch action {
            case .cancel: record = try await journal.cancel(key, reason: fields["reason"] ?? "")
            case .retry: record = try await journal.retry(key)
            }
            context.logger.notice("behaviorkit console: \(action.rawValue) \(key): now \(record.status.rawValue)")
            let message = "\(action.label): the record is \(record.status.rawValue) now."
            return Response.redirect(
                to: "record?" + QueryString.build([("key", key), ("message", message)]), type: .normal)
        } catch let error as CommandJournalError {
            return errorPage(.conflict, redaction.apply("\(error)"))
        } catch {
            let message = redaction.apply("\(error)")
            context.logger.error("behaviorkit console: \(action.rawValue) \(key) failed: \(message)")
            return errorPage(.internalServerError, "The journal could not \(action.rawValue) '\(key)': \(message)")
        }
    }
}
