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
    /// The name of a sleep until a date (``WorkflowContext/sleep(until:)``), whose output is
    /// the date; a sleep for a duration is named `"sleep"`, and its output is milliseconds.
    static let sleepUntilName = "sleep until"

    /// The key of the child at `position` of the run `key`.
    static func childKey(_ key: String, _ position: Int) -> String { "\(key)/\(position)" }

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
        try? JSONDecoder().decode(WorkflowPlan.self, from: Data(entry.payload))
    }
}

/// The output of a receive's record: the message it consumed, or none (its timeout passed).
struct WorkflowDelivery: Codable, Sendable, Hashable {
    var messageKey: String?
    var message: [UInt8]?
}
