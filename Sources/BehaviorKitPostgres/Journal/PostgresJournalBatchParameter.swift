/// The batch function's parameters, in the order it takes them: the one place their layout is
/// written. The function's signature, the call's placeholders, the check that the function is
/// there and the order of the bindings (``PostgresJournalBatchArguments``) are all made from it.
///
/// Each write of a batch is one element of every `write` array, at its position (from 1); a
/// write's nested lists (a renewal's attempts, a settlement's changes) are elements of their own
/// parallel arrays, each with the position of the write it belongs to, in the writes' order.
enum PostgresJournalBatchParameter: String, CaseIterable, Sendable {
    /// The time now, or NULL for the server's clock.
    case now
    case ops, keys, kinds, payloads, parents, owners, ms, tokens, statuses, outputs, reasons, queues, limits
    case concurrencies, deads
    /// An enqueue's priority (v5).
    case priorities
    /// An enqueue's partition, and a claim's limit per partition (v6).
    case partitions
    case partitionLimits = "partition_limits"
    case holdWrites = "hold_writes"
    case holdKeys = "hold_keys"
    case holdTokens = "hold_tokens"
    case changeWrites = "change_writes"
    case changeKeys = "change_keys"
    case changeStatuses = "change_statuses"
    case changeOutputs = "change_outputs"
    case changeReasons = "change_reasons"
    case changeKinds = "change_kinds"
    case changePayloads = "change_payloads"
    case changeParents = "change_parents"

    /// The arrays that go together: one element per write, per renewed attempt, per change.
    enum Group: CaseIterable, Sendable {
        case writes, holds, changes
    }

    /// The parameter's name in the function.
    var name: String { "p_" + rawValue }

    /// The array group it belongs to; `nil` for the time.
    var group: Group? {
        switch self {
        case .now: nil
        case .ops, .keys, .kinds, .payloads, .parents, .owners, .ms, .tokens, .statuses, .outputs, .reasons, .queues,
            .limits, .concurrencies, .deads, .priorities, .partitions, .partitionLimits:
            .writes
        case .holdWrites, .holdKeys, .holdTokens: .holds
        case .changeWrites, .changeKeys, .changeStatuses, .changeOutputs, .changeReasons, .changeKinds,
            .changePayloads, .changeParents:
            .changes
        }
    }

    /// Its type, as `format_type` spells it.
    var type: String {
        switch self {
        case .now: "bigint"
        case .ops: "smallint[]"
        case .keys, .kinds, .parents, .owners, .statuses, .reasons, .queues, .deads, .partitions, .holdKeys,
            .changeKeys,
            .changeStatuses, .changeReasons, .changeKinds, .changeParents:
            "text[]"
        case .payloads, .outputs, .changeOutputs, .changePayloads: "bytea[]"
        case .ms, .tokens, .limits, .concurrencies, .priorities, .partitionLimits, .holdWrites, .holdTokens,
            .changeWrites:
            "bigint[]"
        }
    }

    /// The function's parameter list: each name with its type.
    static let declarations = allCases.map { "\($0.name) \($0.type)" }.joined(separator: ", ")

    /// The function's argument types, as `to_regprocedure` reads them.
    static let signature = allCases.map(\.type).joined(separator: ", ")

    /// The call's placeholders, each cast to its parameter's type.
    static let placeholders = allCases.enumerated().map { "$\($0.offset + 1)::\($0.element.type)" }.joined(
        separator: ", ")

    /// The first array of `group`, whose length the others must have.
    static func first(of group: Group) -> Self? {
        allCases.first { $0.group == group }
    }
}
