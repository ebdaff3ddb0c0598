import Commands
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// What a person can do from the console: each a `POST` form carrying the console's CSRF token
/// and what it acts on (a record's key, or a queue's name).
enum ConsoleAction: String, CaseIterable, Sendable {
    /// Cancel a pending record (``CommandJournalManagement/cancel(_:reason:)``).
    case cancel
    /// Retry a failed or compensated record (``CommandJournalManagement/retry(_:)``).
    case retry
    /// Cancel a workflow run and its unsettled children
    /// (``CommandJournalManagement/cancelWorkflowRun(_:reason:)``).
    case cancelWorkflow = "cancel-workflow"
    /// Pause a queue fleet-wide (``CommandJournalManagement/pause(queue:)``).
    case pause
    /// Resume a paused queue (``CommandJournalManagement/resume(queue:)``).
    case resume
    /// Retry every failed or compensated root record a filter of the records page matches
    /// (``CommandJournalManagement/retry(matching:after:limit:)``).
    case retryMatching = "retry-matching"
    /// Cancel every pending root record a filter of the records page matches
    /// (``CommandJournalManagement/cancel(matching:reason:after:limit:)``).
    case cancelMatching = "cancel-matching"

    /// What an action acts on: the form field that names it (none for a filter's records).
    enum Target {
        case record, queue, filter
        var field: String? {
            switch self {
            case .record: "key"
            case .queue: "queue"
            case .filter: nil
            }
        }
    }

    var target: Target {
        switch self {
        case .cancel, .retry, .cancelWorkflow: .record
        case .pause, .resume: .queue
        case .retryMatching, .cancelMatching: .filter
        }
    }

    var label: String {
        switch self {
        case .cancel, .cancelWorkflow: "Cancel"
        case .retry: "Retry"
        case .pause: "Pause"
        case .resume: "Resume"
        case .retryMatching: "Retry all matching"
        case .cancelMatching: "Cancel all matching"
        }
    }

    /// Whether its button is red: what it does cannot be undone.
    var isDestructive: Bool { self == .cancel || self == .cancelWorkflow || self == .cancelMatching }
}

extension JournalConsole {
    /// Performs `action` when the console allows actions and the form carries the CSRF token,
    /// then sends the browser back to the page of what it acted on (a record's, a run's, the
    /// overview for a queue) with a message; refuses with 403 otherwise.
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
        var name = ""
        if let field = action.target.field {
            guard let named = fields[field], !named.isEmpty else {
                return errorPage(
                    .badRequest, "\(field): the form names no \(action.target == .record ? "record" : "queue").")
            }
            name = named
        }
        do {
            let location =
                action.target == .filter
                ? try await actOnMatching(action, fields)
                : try await act(action, on: name, reason: fields["reason"] ?? "")
            context.logger.notice("behaviorkit console: \(action.rawValue) \(name)")
            return Response.redirect(to: location, type: .normal)
        } catch let error as ConsolePageError {
            return errorPage(error.status, error.message)
        } catch let error as JournalBulkActionError {
            return errorPage(.conflict, redaction.apply("\(error)"))
        } catch let error as CommandJournalError {
            return errorPage(.conflict, redaction.apply("\(error)"))
        } catch let error as WorkflowError {
            return errorPage(.conflict, redaction.apply("\(error)"))
        } catch {
            let message = redaction.apply("\(error)")
            context.logger.error("behaviorkit console: \(action.rawValue) \(name) failed: \(message)")
            return errorPage(.internalServerError, "The journal could not \(action.rawValue) '\(name)': \(message)")
        }
    }

    /// Does `action` to the record or queue `name`; answers the page to show next, with a message.
    private func act(_ action: ConsoleAction, on name: String, reason: String) async throws -> String {
        func page(_ path: String, _ fields: [(String, String?)]) -> String {
            path + "?" + QueryString.build(fields)
        }
        switch action {
        case .cancel, .retry:
            let record =
                action == .cancel ? try await journal.cancel(name, reason: reason) : try await journal.retry(name)
            let message = "\(action.label): the record is \(record.status.rawValue) now."
            return page("record", [("key", name), ("message", message)])
        case .cancelWorkflow:
            let (run, uncancelled) = try await journal.cancelWorkflowRun(name, reason: reason)
            var message = "Cancel: the run is \(run.status.rawValue) now."
            if !uncancelled.isEmpty {
                message +=
                    " Children not cancelled: "
                    + uncancelled.map { "\($0.key) (\(redaction.apply("\($0.error)")))" }.joined(separator: ", ")
            }
            return page("workflow", [("key", name), ("message", message)])
        case .retryMatching, .cancelMatching:
            return try await actOnMatching(action, [:])
        case .pause, .resume:
            if action == .pause { try await journal.pause(queue: name) } else { try await journal.resume(queue: name) }
            let message = "\(action.label): the queue '\(name)' is \(action == .pause ? "paused" : "running") now."
            return page("./", [("message", message)])
        }
    }
}
