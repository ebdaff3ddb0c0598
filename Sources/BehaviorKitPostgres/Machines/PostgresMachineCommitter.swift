import Commands
import DurableMachines
import Foundation
import Logging
import PostgresNIO

/// Runs a batch of ``PostgresMachineStore`` commits as one call of the commit function
/// (``PostgresMachineCommitFunction``, typed arrays): one round trip, one transaction; and reads
/// each commit's answer from the rows it returns.
///
/// The batch goes in the order of its keys, so that two batches on two connections lock
/// instances in one order and never wait on each other in a cycle; commits of one key keep the
/// order they came in. When the server refuses the call (nothing of it was written), each commit
/// runs alone, so that only the one at fault fails; a deadlock or a serialization failure runs
/// the batch again. A connection lost during the call is ridden out by the connections, as the
/// journal's batches are.
///
/// A store that shares the journal's database (a ``PostgresStore``'s views) enqueues the
/// commands of the steps that committed on the journal in the same transaction, with the
/// journal's batch function: a step and its commands commit together or not at all. A command
/// the journal refuses (its key taken by another command) rolls the batch back; each commit
/// then runs alone, and only that step fails, with the journal's error.
struct PostgresMachineCommitter: Sendable {
    let statement: PreparedJournalStatement.Text
    /// The call, its rows led by the transaction's identity
    /// (``PostgresJournalConnections/identityColumns``): one round trip where asking for it
    /// before would take two.
    let identifiedStatement: PreparedJournalStatement.Text
    let names: PostgresJournalNames
    let logger: Logger
    /// The journal whose table the commands of a commit go to, in its transaction; `nil` for a
    /// store alone (they go through the outbox).
    let journal: PostgresJournalWriter?

    init(
        statement: PreparedJournalStatement.Text, names: PostgresJournalNames, logger: Logger,
        journal: PostgresJournalWriter? = nil
    ) {
        self.statement = statement
        self.journal = journal
        self.identifiedStatement = PreparedJournalStatement.Text(
            PostgresJournalConnections.identified(statement.sql))
        self.names = names
        self.logger = logger
    }

    func commit(
        _ commits: [MachineCommit], _ connections: PostgresJournalConnections
    ) async -> [Result<MachineCommitResult, any Error>] {
        let order = commits.indices.sorted {
            (commits[$0].key.machine, commits[$0].key.key, $0) < (commits[$1].key.machine, commits[$1].key.key, $1)
        }
        let arguments = PostgresMachineCommitArguments(order.map { commits[$0] })
        return await PostgresBatchCall.run(
            commits.count, on: connections, names,
            identified: { connection, run in
                var answer = try await self.call(arguments, count: commits.count, on: connection, run)
                answer.value = try await self.enqueue(order.map { commits[$0] }, answer.value, on: connection)
                return answer
            },
            refuses: { answers in answers.contains { if case .failure? = $0 { true } else { false } } },
            oneStatement: journal == nil || commits.allSatisfy(\.commands.isEmpty),
            answered: { answers in
                var results = [Result<MachineCommitResult, any Error>](
                    repeating: .failure(names.error(.ioFailed, "a commit got no answer").asMachineStore),
                    count: commits.count)
                for (position, index) in order.enumerated() {
                    if let answer = answers[position] { results[index] = answer }
                }
                return results
            },
            alone: {
                var results: [Result<MachineCommitResult, any Error>] = []
                for commit in commits { results += await self.commit([commit], connections) }
                return results
            },
            failed: { state, error in
                logger.error(
                    "machine commit failed",
                    metadata: ["commits": "\(commits.count)", "sqlstate": "\(state ?? "-")", "error": "\(error)"])
                return commits.map { _ in .failure(error.asMachineStore) }
            })
    }

    /// Each commit's answer, by position; `nil` until the function gave it; a failure when the
    /// journal refused a command of the step (``enqueue(_:_:on:)``).
    typealias Answers = [Result<MachineCommitResult, any Error>?]

    /// The journal's write of a step's `command`, as the outbox's relay enqueues it (the queue's
    /// default priority, no partition).
    static func enqueue(_ command: MachineCommand) -> JournalWrite {
        .enqueue(
            command.entry, queue: command.queue, after: command.delay, priority: CommandQueue.defaultPriority,
            partition: nil, traceContext: nil)
    }

    /// Enqueues on the journal (when the store shares its database) the commands of the `commits`
    /// (in the call's order) that `answers` say committed, on `connection`, in their transaction;
    /// answers a commit whose command the journal refused with the journal's error. `prepared`:
    /// as the journal's prepared statement (on a connection of the store's own).
    func enqueue(
        _ commits: [MachineCommit], _ answers: Answers, on connection: PostgresConnection, prepared: Bool = true
    ) async throws -> Answers {
        guard let journal else { return answers }
        var writes: [JournalWrite] = []
        var owners: [Int] = []
        for (position, commit) in commits.enumerated() {
            guard case .success(.committed)? = answers[position] else { continue }
            for command in commit.commands {
                writes.append(Self.enqueue(command))
                owners.append(position)
            }
        }
        guard !writes.isEmpty else { return answers }
        let rows = try await journal.call(writes, on: connection, prepared: prepared)
        var answers = answers
        for (index, write) in writes.enumerated() where rows.indices.contains(index) {
            do {
                _ = try journal.result(of: write, rows[index])
            } catch {
                answers[owners[index]] = .failure(error)
            }
        }
        return answers
    }

    /// Calls the function with `arguments`, the commits in their sorted order; returns the
    /// answer of each, in that order, and when `identifies`, the transaction's identity its rows
    /// carry (`nil` when it gave no row: the connections then ask for it).
    func call(
        _ arguments: PostgresMachineCommitArguments, count: Int, on connection: PostgresConnection,
        _ run: PostgresJournalConnections.Run
    ) async throws -> (value: Answers, transaction: PostgresJournalConnections.Transaction?) {
        let identifies = run.identifies
        var answers = Answers(repeating: nil, count: count)
        let bindings: PostgresBindings
        do {
            bindings = try arguments.bindings()
        } catch {
            throw names.error(.queryFailed, "cannot encode the commits: \(error)")
        }
        let rows = try await connection.run(
            identifies ? identifiedStatement : statement, bindings, logger: logger, confirmingCommit: run == .alone)
        let transaction = identifies ? try rows.first.map(PostgresJournalConnections.identity(in:)) : nil
        let first = identifies ? PostgresJournalStatements.identityColumnCount : 0
        for row in rows {
            let values = PostgresJournalRow(row, names)
            let position = Int(clamping: try values.value(first, as: Int64.self) - 1)
            guard answers.indices.contains(position) else {
                throw names.error(.malformedRecord, "the commit function answered commit \(position + 1) of \(count)")
            }
            let outcome = try values.value(first + 1, as: String.self)
            let version = try values.value(first + 2, as: Int64?.self)
            switch outcome {
            case "committed": answers[position] = .success(.committed)
            case "conflict": answers[position] = .success(.versionConflict(current: version))
            case "duplicate":
                let step = MachineStepRecord(
                    sequence: try values.value(first + 3), eventID: try values.value(first + 4),
                    at: Date(journalMilliseconds: try values.value(first + 5)), body: try values.bytes(first + 6) ?? [])
                answers[position] = .success(.duplicateEvent(step))
            default:
                throw names.error(.malformedRecord, "the commit function answered '\(outcome)'")
            }
        }
        return (answers, transaction)
    }

    /// Refuses a commit the tables cannot hold, before it joins a batch: text with U+0000, a
    /// step whose sequence is not the expected version plus one.
    func validate(_ commit: MachineCommit) throws(PostgresStoreError) {
        guard commit.expectedVersion >= 0, commit.step.sequence == commit.expectedVersion + 1 else {
            throw invalid(
                "the step of a commit on \(commit.key) has sequence \(commit.step.sequence), not its expected "
                    + "version \(commit.expectedVersion) plus one")
        }
        let texts: [String?] =
            [commit.key.machine, commit.key.key, commit.step.eventID] + commit.states.map(\.state)
            + commit.disarmedTimers + commit.armedTimers.map(\.id) + commit.stoppedEffects
            + commit.startedEffects.flatMap { [$0.id, $0.owner] }
        try validate(texts)
        guard let journal else { return }
        for command in commit.commands { try journal.validate(Self.enqueue(command)) }
    }

    /// Refuses text PostgreSQL cannot store (the character U+0000).
    func validate(_ texts: [String?]) throws(PostgresStoreError) {
        guard let bad = texts.compactMap({ $0 }).first(where: { $0.utf8.contains(0) }) else { return }
        let shown = bad.replacingOccurrences(of: "\u{0}", with: "\\0")
        throw invalid("PostgreSQL text cannot hold the character U+0000, as \"\(shown)\" does")
    }

    func invalid(_ reason: String) -> PostgresStoreError {
        PostgresStoreError(
            code: .invalidValue, server: names.server, database: names.database, tablePrefix: names.table,
            reason: reason)
    }
}
