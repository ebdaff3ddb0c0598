import Commands
import Foundation

extension JournalConsole {
    /// How many records one press of a bulk action acts on, at most: the rest wait for the next
    /// press (the message says how many may remain).
    static let bulkLimit = 5_000

    /// Retries or cancels the records the form's filter (the records page's fields) matches, in
    /// batches of 500 up to ``bulkLimit``; answers the records page of that filter with what
    /// changed, what was refused, and whether more may match.
    func actOnMatching(_ action: ConsoleAction, _ fields: [String: String]) async throws -> String {
        let request = ConsoleRequest(query: fields, now: options.clock.currentDate)
        let filter = try RecordsPage.filter(request)
        var cursor: Int64?
        var changed = 0
        var refused: [JournalBulkResult.Refusal] = []
        repeat {
            let batch =
                action == .retryMatching
                ? try await journal.retry(matching: filter, after: cursor, limit: 500)
                : try await journal.cancel(matching: filter, reason: fields["reason"] ?? "", after: cursor, limit: 500)
            changed += batch.changed.count
            refused += batch.refused
            cursor = batch.nextCursor
        } while cursor != nil && changed + refused.count < Self.bulkLimit
        var message = "\(action.label): \(changed) \(action == .retryMatching ? "retried" : "cancelled")"
        if !refused.isEmpty {
            message +=
                ", \(refused.count) refused ("
                + refused.prefix(3).map { redaction.apply("\($0)") }.joined(
                    separator: "; ") + (refused.count > 3 ? "; …" : "") + ")"
        }
        if cursor != nil { message += "; more may match: press again" }
        message += "."
        let kept = RecordsPage.filterFields.map { ($0, request[$0]) }
        return "records?" + QueryString.build(kept + [("message", message)])
    }
}
