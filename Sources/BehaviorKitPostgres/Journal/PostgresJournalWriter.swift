import Commands
import Foundation
import Logging
import PostgresNIO

/// Runs a batch of the journal's writes as one call of the table's batch function
/// (``PostgresJournalBatchFunction``): one round trip, one transaction; and reads each write's
/// answer from the rows it returns. A conflict or a lost lease is that caller's
/// `CommandJournalError`; the server changed nothing for it.
struct PostgresJournalWriter: Sendable {
    let statements: PostgresJournalStatements
    let names: PostgresJournalNames
    let clock: (any WallClock)?
    let logger: Logger

    /// One write as the batch function reads it: its fields at its position in the call's
    /// arrays (``PostgresJournalBatchArguments``).
    struct Operation: Sendable {
        var op: PostgresJournalOperationCode
        var key: String?
        var kind: String?
        var payload: [UInt8]?
        var parent: String?
        var owner: String?
        var ms: Int64?
        var status: String?
        var output: [UInt8]?
        var reason: String?
        var holds: [(key: String, token: Int64)] = []
        var token: Int64?
        var queue: String?
        var limit: Int64?
        var concurrency: Int64?
        var dead: String?
        var priority: Int64?
        var partition: String?
        var perPartition: Int64?
        var changes: [Change] = []
    }

    /// One settlement of a `changes` write; `kind` set when it writes a missing child.
    struct Change: Sendable {
        var key: String
        var status: String
        var output: [UInt8]?
        var reason: String?
        var kind: String?
        var payload: [UInt8]?
        var parent: String?
    }

    /// The rows one write got back.
    struct Answer: Sendable {
        var outcome: PostgresJournalOutcome
        var now: Int64
        var aux: String?
        var aux2: String?
        var next: Int64?
        var record: CommandJournalRecord?
    }

    /// Runs `writes` in one call; returns the rows of each write, in order. `prepared`: as the
    /// journal's named prepared statement; else unnamed, on a connection the journal does not own
    /// (a failed preparation would stay cached on it).
    func call(
        _ writes: [JournalWrite], on connection: PostgresConnection, prepared: Bool = true
    ) async throws -> [[Answer]] {
        let statement = statements.batch
        let bindings = try bindings(writes)
        let rows =
            prepared
            ? try await connection.run(statement, bindings, logger: logger)
            : try await connection.rowsWhileOpen(
                PostgresQuery(unsafeSQL: statement.sql, binds: bindings), logger: logger)
        return try answers(rows, count: writes.count, from: 0)
    }

    /// Runs the `count` writes bound in `bindings` (``bindings(_:)``, made once for every run of
    /// a call, so that each run carries the same begin tokens) as the journal's prepared
    /// statement, as `run` says (``PostgresJournalConnections/Run``): reading the transaction's
    /// identity too, which comes back with the rows of each write (`nil` when the call gave no
    /// row); or alone, answering once its implicit transaction committed.
    func call(
        _ count: Int, _ bindings: PostgresBindings, on connection: PostgresConnection,
        _ run: PostgresJournalConnections.Run
    ) async throws -> (value: [[Answer]], transaction: PostgresJournalConnections.Transaction?) {
        guard run.identifies else {
            let rows = try await connection.run(
                statements.batch, bindings, logger: logger, confirmingCommit: run == .alone)
            return (try answers(rows, count: count, from: 0), nil)
        }
        let rows = try await connection.run(statements.identifiedBatch, bindings, logger: logger)
        let transaction = try rows.first.map(PostgresJournalConnections.identity(in:))
        return (try answers(rows, count: count, from: PostgresJournalStatements.identityColumnCount), transaction)
    }

    func bindings(_ writes: [JournalWrite]) throws -> PostgresBindings {
        try PostgresJournalBatchArguments(
            now: clock.map { $0.currentDate.journalMilliseconds.clampedForJournal }, writes.map(operation)
        ).bindings()
    }

    /// The answers of `count` writes in `rows`, whose batch function's columns start at `first`.
    private func answers(_ rows: [PostgresRow], count: Int, from first: Int) throws -> [[Answer]] {
        var answers = [[Answer]](repeating: [], count: count)
        for row in rows {
            let values = PostgresJournalRow(row, names)
            let position = try values.value(first, as: Int64.self) - 1
            guard answers.indices.contains(Int(clamping: position)) else {
                throw names.error(.ioFailed, "answer \(position)")
            }
            let outcomeText = try values.value(first + 1, as: String.self)
            guard let outcome = PostgresJournalOutcome(rawValue: outcomeText) else {
                throw names.error(.ioFailed, "the batch function answered the unknown outcome '\(outcomeText)'")
            }
            answers[Int(clamping: position)].append(
                Answer(
                    outcome: outcome, now: try values.value(first + 2), aux: try values.value(first + 3),
                    aux2: try values.value(first + 4), next: try values.value(first + 5),
                    record: try values.record(at: first + 6)))
        }
        return answers
    }

    private func operation(_ write: JournalWrite) -> Operation {
        func entry(_ op: PostgresJournalOperationCode, _ entry: CommandJournalEntry) -> Operation {
            Operation(
                op: op, key: entry.idempotencyKey, kind: entry.kind, payload: entry.payload, parent: entry.parentKey)
        }
        switch write {
        case .begin(let journalEntry, let lease), .beginOnQueue(let journalEntry, _, let lease):
            var operation = entry(.begin, journalEntry)
            operation.owner = lease.owner
            operation.ms = lease.duration.journalMilliseconds.clampedForJournal
            // The begin's own token (v13), drawn once for all the runs of its call.
            operation.token = Int64.random(in: 1 ... .max)
            // A begin whose new record goes on `queue` (v7 of the batch function).
            if case .beginOnQueue(_, let queue, _) = write { operation.queue = queue }
            return operation
        case .append(let journalEntry, let lease):
            var operation = entry(.append, journalEntry)
            operation.owner = lease.owner
            operation.token = lease.token.map(Int64.init)
            return operation
        case .settle(let key, let settlement, let lease):
            var operation = Operation(op: .settle, key: key, owner: lease.owner, status: settlement.status.rawValue)
            operation.token = lease.token.map(Int64.init)
            if case .done(let output?) = settlement { operation.output = output }
            if case .failed(let reason) = settlement { operation.reason = reason }
            return operation
        case .changes(let changes, let lease):
            var operation = Operation(op: .changes, owner: lease.owner)
            operation.token = lease.token.map(Int64.init)
            operation.changes = changes.map { change in
                var encoded = Change(key: change.key, status: change.settlement.status.rawValue)
                if case .done(let output?) = change.settlement { encoded.output = output }
                if case .failed(let reason) = change.settlement { encoded.reason = reason }
                if let entry = change.entry {
                    encoded.kind = entry.kind
                    encoded.payload = entry.payload
                    encoded.parent = entry.parentKey
                }
                return encoded
            }
            return operation
        case .renew(let attempts, let lease):
            return Operation(
                op: .renew, owner: lease.owner, ms: lease.duration.journalMilliseconds.clampedForJournal,
                holds: attempts.sorted { $0.key < $1.key }.map { ($0.key, Int64($0.value)) })
        case .release(let key, let lease, let delay):
            return Operation(
                op: .release, key: key, owner: lease.owner, ms: delay.journalMilliseconds.clampedForJournal,
                token: lease.token.map(Int64.init))
        case .claim(let limit, let queue, let concurrency, let perPartition, let deadOwner, let lease):
            var operation = Operation(
                op: .claim, owner: lease.owner, ms: lease.duration.journalMilliseconds.clampedForJournal, queue: queue,
                limit: Int64(limit), concurrency: concurrency.map(Int64.init), dead: deadOwner)
            operation.perPartition = perPartition.map { Int64(max(1, $0)) }
            return operation
        case .enqueue(let journalEntry, let queue, let delay, let priority, let partition, _):
            // The trace context goes to its own table.
            var operation = entry(.enqueue, journalEntry)
            operation.queue = queue
            operation.priority = Int64(priority)
            operation.partition = partition
            operation.ms = delay.journalMilliseconds.clampedForJournal
            return operation
        case .prune(let date, let statuses, let queue, let limit):
            // The function prunes every settled root; a narrower prune is a management write.
            guard statuses.isEmpty, queue == nil, limit == nil else { return Operation(op: .unsupported) }
            return Operation(op: .prune, ms: date)
        case .releaseFailed, .cancel, .retry, .logAttempt, .pause, .wake:
            return Operation(op: .unsupported)  // never batched: the function refuses it
        }
    }

    /// Refuses a write whose text PostgreSQL cannot store (the character U+0000), before it
    /// joins a batch.
    func validate(_ write: JournalWrite) throws(PostgresStoreError) {
        let texts: [String?] =
            switch write {
            case .begin(let entry, let lease), .append(let entry, let lease):
                [entry.idempotencyKey, entry.kind, entry.parentKey, lease.owner]
            case .beginOnQueue(let entry, let queue, let lease):
                [entry.idempotencyKey, entry.kind, entry.parentKey, queue, lease.owner]
            case .settle(let key, let settlement, let lease):
                if case .failed(let reason) = settlement { [key, reason, lease.owner] } else { [key, lease.owner] }
            case .changes(let changes, let lease):
                changes.flatMap { change -> [String?] in
                    let reason: String? = if case .failed(let reason) = change.settlement { reason } else { nil }
                    return [change.key, reason, change.entry?.kind, change.entry?.parentKey]
                } + [lease.owner]
            case .renew(let attempts, let lease): attempts.keys.sorted() + [lease.owner]
            case .release(let key, let lease, _): [key, lease.owner]
            case .claim(_, let queue, _, _, let deadOwner, let lease): [queue, deadOwner, lease.owner]
            case .enqueue(let entry, let queue, _, _, let partition, _):
                [entry.idempotencyKey, entry.kind, entry.parentKey, queue, partition]
            case .prune: []
            case .releaseFailed(let key, let lease, _, _): [key, lease.owner]
            case .cancel(let key, _), .retry(let key), .wake(let key): [key]
            case .pause(let queue, _): [queue]
            case .logAttempt(_, let key, let parentKey, let lease): [key, parentKey, lease.owner]
            }
        guard let bad = texts.compactMap({ $0 }).first(where: { $0.utf8.contains(0) }) else { return }
        let shown = bad.replacingOccurrences(of: "\u{0}", with: "\\0")
        throw names.error(
            .queryFailed, "PostgreSQL text cannot hold the character U+0000, as \"\(shown)\" does; nothing was written")
    }

    /// What `write` gives its caller, from the rows it got back.
    func result(of write: JournalWrite, _ answers: [Answer]) throws -> JournalWriteOutcome {
        switch write {
        case .begin(let entry, _), .beginOnQueue(let entry, _, _):
            return .begun(try begun(entry, answers.first))
        case .append(let entry, _), .enqueue(let entry, _, _, _, _, _):
            guard let answer = answers.first else { throw unanswered(entry.idempotencyKey) }
            if answer.outcome == .lost {
                throw CommandJournalError.leaseLost(key: answer.aux2 ?? entry.parentKey ?? "", owner: answer.aux)
            }
            guard let record = answer.record else { throw unanswered(entry.idempotencyKey) }
            guard answer.outcome == .inserted || record.entry == entry else {
                throw CommandJournalError.conflictingEntry(key: entry.idempotencyKey)
            }
            return .record(record)
        case .settle(let key, _, _):
            switch answers.first?.outcome {
            case .settled, .same: return .none
            case .unknown: throw CommandJournalError.unknownKey(key)
            case .lost: throw CommandJournalError.leaseLost(key: answers.first?.aux2 ?? key, owner: answers.first?.aux)
            default: throw unanswered(key)
            }
        case .changes:
            let answer = answers.first
            switch answer?.outcome {
            case .settled: return .none
            case .unknown: throw CommandJournalError.unknownKey(answer?.aux2 ?? "")
            case .conflict: throw CommandJournalError.conflictingEntry(key: answer?.aux2 ?? "")
            case .lost: throw CommandJournalError.leaseLost(key: answer?.aux2 ?? "", owner: answer?.aux)
            default: throw unanswered("a settlement")
            }
        case .renew(let attempts, _):
            let renewed = Set(answers.compactMap(\.aux))
            return .keys(attempts.keys.sorted().filter(renewed.contains))
        case .release:
            return .none
        case .claim:
            let claimed = answers.filter { $0.outcome == .claimed }
            // In the order of the claim: the highest priority first, then the oldest; each with the
            // trace context kept for it (v8: `o_aux2`). A context that does not read is no reason for
            // a claim to fail: without it, the worker starts a trace.
            let records = claimed.compactMap(tracedRecord).sorted {
                $0.priority != $1.priority ? $0.priority > $1.priority : $0.sequence < $1.sequence
            }
            var previousOwners: [String: String] = [:]
            for answer in claimed {
                if let key = answer.record?.id, let owner = answer.aux { previousOwners[key] = owner }
            }
            guard let last = answers.last(where: { $0.outcome == .next }) else { throw unanswered("a claim") }
            return .claimed(
                CommandJournalClaim(
                    records: records, nextDue: last.next.map { .milliseconds($0 &- last.now) },
                    previousOwners: previousOwners, heldByRateLimit: last.aux == "rate"))
        case .prune:
            return .count(Int(clamping: answers.first?.next ?? 0))
        case .releaseFailed, .cancel, .retry, .logAttempt, .pause, .wake:
            throw unanswered("a management write")
        }
    }

    /// A claimed record with the trace context its answer read (v8: `o_aux2`).
    private func tracedRecord(_ answer: Answer) -> CommandJournalRecord? {
        guard var record = answer.record else { return nil }
        if let text = answer.aux2 {
            record.traceContext = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
        }
        return record
    }

    private func begun(_ entry: CommandJournalEntry, _ answer: Answer?) throws -> CommandJournalBegin {
        guard let answer, let record = answer.record else { throw unanswered(entry.idempotencyKey) }
        switch answer.outcome {
        case .started: return .started(record)
        case .resumed: return .resumed(record)
        default:
            guard record.entry == entry else { throw CommandJournalError.conflictingEntry(key: entry.idempotencyKey) }
            return record.isSettled ? .settled(record) : .busy(record)
        }
    }

    private func unanswered(_ key: String) -> PostgresStoreError {
        names.error(.ioFailed, "the journal gave no answer for '\(key)' (it may have been pruned meanwhile)")
    }
}
