#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a workflow is written in a journal. A run is a root record of kind ``runKind`` on the
/// workflows' queue, under the key it was started with, whose payload is a ``WorkflowPlan``;
/// its output is the workflow's output, its failure reason the workflow's error. Each step,
/// sleep, receive, patch, published event, child's start and child's result is a child record
/// `"<key>/<position>"` (from 0, in the order the function asked for them) whose kind says
/// which it is and whose payload names it, for the determinism check. A message is a root
/// record of its own on the receiver's mailbox queue; a child run is a run of its own.
enum WorkflowRecord {
    static let runKind = "behaviorkit.workflow"
    static let stepKind = "behaviorkit.workflow.step"
    static let sleepKind = "behaviorkit.workflow.sleep"
    static let receiveKind = "behaviorkit.workflow.receive"
    static let messageKind = "behaviorkit.workflow.message"
    static let patchKind = "behaviorkit.workflow.patch"
    static let eventKind = "behaviorkit.workflow.event"
    static let startKind = "behaviorkit.workflow.start"
    static let joinKind = "behaviorkit.workflow.join"
    /// A compensation done (compensated) or failed, under ``compensationKey(_:_:)``.
    static let compensationKind = "behaviorkit.workflow.compensation"
    /// Why a run rolls back (its failure reason), under ``rollbackKey(_:)``: written as the
    /// rollback begins, so that a worker taking it over compensates instead of running on.
    static let rollbackKind = "behaviorkit.workflow.rollback"
    /// The mark of a run with a finished step that has a compensation, under
    /// ``CommandJournalCancellation/compensationsKey(of:)``.
    static let compensableKind = "behaviorkit.workflow.compensable"
    /// The name of a sleep until a date (``WorkflowContext/sleep(until:)``), whose output is
    /// the date; a sleep for a duration is named `"sleep"`, and its output is milliseconds.
    static let sleepUntilName = "sleep until"

    /// The key of the child at `position` of the run `key`.
    static func childKey(_ key: String, _ position: Int) -> String { "\(key)/\(position)" }

    /// The key of the compensation of the step at `position` of the run `key`.
    static func compensationKey(_ key: String, _ position: Int) -> String { "\(key)/compensation/\(position)" }

    /// The key of the rollback mark of the run `key`.
    static func rollbackKey(_ key: String) -> String { "\(key)/rollback" }

    /// The queue on which the messages of `topic` for the run `key` wait.
    static func mailbox(_ key: String, topic: String) -> String { "behaviorkit.workflow.mailbox/\(key)/\(topic)" }

    /// The key of the message `id` of `topic` for the run `key`.
    static func messageKey(_ key: String, topic: String, id: String) -> String { "\(key)/message/\(topic)/\(id)" }

    /// How a child is named in errors: its kind and name.
    static func describe(kind: String, name: String) -> String {
        switch kind {
        case stepKind: "step '\(name)'"
        case sleepKind: name == sleepUntilName ? "a sleep until a date" : "a sleep"
        case patchKind: "patch '\(name)'"
        case eventKind: "a publish of '\(name)'"
        case startKind: "a start of the child '\(name)'"
        case joinKind: "the result of the child '\(name)'"
        case receiveKind: "a receive on '\(name)'"
        default: "'\(name)' (\(kind))"
        }
    }

    /// The compensations a run wrote down, by the position of their step.
    static func compensations(_ records: [CommandJournalRecord], of key: String) -> [Int: CommandJournalRecord] {
        var compensations: [Int: CommandJournalRecord] = [:]
        let prefix = compensationKey(key, 0).dropLast()
        for record in records where record.entry.kind == compensationKind && record.id.hasPrefix(prefix) {
            if let position = Int(record.id.dropFirst(prefix.count)) { compensations[position] = record }
        }
        return compensations
    }

    /// The children of a run, by position.
    static func children(_ records: [CommandJournalRecord], of key: String) -> [Int: CommandJournalRecord] {
        var children: [Int: CommandJournalRecord] = [:]
        for record in records {
            let suffix = record.entry.idempotencyKey.dropFirst(key.count + 1)
            if let position = Int(suffix), position >= 0 { children[position] = record }
        }
        return children
    }
}

/// The payload of a run's record: the workflow's name and its input, encoded, and for a child
/// run, its parent's key (woken when the child settles).
struct WorkflowPlan: Codable, Sendable, Hashable {
    var name: String
    var input: [UInt8]
    var parent: String? = nil

    /// The plan of the run `record`, or `nil` when it does not decode.
    static func of(_ record: CommandJournalRecord) -> WorkflowPlan? {
        of(record.entry)
    }

    /// The plan a run's `entry` carries, or `nil` when it does not decode.
    static func of(_ entry: CommandJournalEntry) -> WorkflowPlan? {
        try? decoded(entry).get()
    }

    /// The plan a run's `entry` carries, or why it does not decode.
    static func decoded(_ entry: CommandJournalEntry) -> Result<WorkflowPlan, any Error> {
        Result { try JSONDecoder().decode(WorkflowPlan.self, from: Data(entry.payload)) }
    }
}

/// The output of a receive's record: the message it consumed, or none (its timeout passed).
struct WorkflowDelivery: Codable, Sendable, Hashable {
    var messageKey: String?
    var message: [UInt8]?
}
