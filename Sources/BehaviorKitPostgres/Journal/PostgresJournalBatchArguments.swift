import PostgresNIO

/// A batch of writes as the batch function takes it: one typed array per parameter
/// (``PostgresJournalBatchParameter``), a write's fields at its position in each, its nested
/// lists flattened into arrays of their own beside the position of their write.
struct PostgresJournalBatchArguments: Sendable {
    typealias Texts = PostgresNullableArray<String>
    typealias Numbers = PostgresNullableArray<Int64>
    typealias Bytes = PostgresNullableArray<ByteBuffer>

    /// The time now, or `nil` for the server's clock.
    var now: Int64?
    var ops = PostgresNullableArray<Int16>()
    var keys = Texts(), kinds = Texts(), parents = Texts(), owners = Texts(), statuses = Texts()
    var reasons = Texts(), queues = Texts(), deads = Texts(), partitions = Texts()
    var payloads = Bytes(), outputs = Bytes()
    var ms = Numbers(), tokens = Numbers(), limits = Numbers(), concurrencies = Numbers(), priorities = Numbers()
    var partitionLimits = Numbers()
    var holdWrites = Numbers(), holdKeys = Texts(), holdTokens = Numbers()
    var changeWrites = Numbers(), changeKeys = Texts(), changeStatuses = Texts(), changeOutputs = Bytes()
    var changeReasons = Texts(), changeKinds = Texts(), changePayloads = Bytes(), changeParents = Texts()

    init(now: Int64?, _ operations: [PostgresJournalWriter.Operation]) {
        self.now = now
        for operation in operations { append(operation) }
    }

    /// Adds `operation` as the next write.
    mutating func append(_ operation: PostgresJournalWriter.Operation) {
        ops.elements.append(operation.op.rawValue)
        let position = Int64(ops.elements.count)
        keys.elements.append(operation.key)
        kinds.elements.append(operation.kind)
        payloads.elements.append(operation.payload.map { ByteBuffer(bytes: $0) })
        parents.elements.append(operation.parent)
        owners.elements.append(operation.owner)
        ms.elements.append(operation.ms)
        tokens.elements.append(operation.token)
        statuses.elements.append(operation.status)
        outputs.elements.append(operation.output.map { ByteBuffer(bytes: $0) })
        reasons.elements.append(operation.reason)
        queues.elements.append(operation.queue)
        limits.elements.append(operation.limit)
        concurrencies.elements.append(operation.concurrency)
        deads.elements.append(operation.dead)
        priorities.elements.append(operation.priority)
        partitions.elements.append(operation.partition)
        partitionLimits.elements.append(operation.perPartition)
        for hold in operation.holds {
            holdWrites.elements.append(position)
            holdKeys.elements.append(hold.key)
            holdTokens.elements.append(hold.token)
        }
        for change in operation.changes {
            changeWrites.elements.append(position)
            changeKeys.elements.append(change.key)
            changeStatuses.elements.append(change.status)
            changeOutputs.elements.append(change.output.map { ByteBuffer(bytes: $0) })
            changeReasons.elements.append(change.reason)
            changeKinds.elements.append(change.kind)
            changePayloads.elements.append(change.payload.map { ByteBuffer(bytes: $0) })
            changeParents.elements.append(change.parent)
        }
    }

    /// The bindings of the call, in the parameters' order.
    func bindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: PostgresJournalBatchParameter.allCases.count)
        for parameter in PostgresJournalBatchParameter.allCases {
            switch parameter {
            case .now: bindings.append(now)
            case .ops: try bindings.append(ops)
            case .keys: try bindings.append(keys)
            case .kinds: try bindings.append(kinds)
            case .payloads: try bindings.append(payloads)
            case .parents: try bindings.append(parents)
            case .owners: try bindings.append(owners)
            case .ms: try bindings.append(ms)
            case .tokens: try bindings.append(tokens)
            case .statuses: try bindings.append(statuses)
            case .outputs: try bindings.append(outputs)
            case .reasons: try bindings.append(reasons)
            case .queues: try bindings.append(queues)
            case .limits: try bindings.append(limits)
            case .concurrencies: try bindings.append(concurrencies)
            case .deads: try bindings.append(deads)
            case .priorities: try bindings.append(priorities)
            case .partitions: try bindings.append(partitions)
            case .partitionLimits: try bindings.append(partitionLimits)
            case .holdWrites: try bindings.append(holdWrites)
            case .holdKeys: try bindings.append(holdKeys)
            case .holdTokens: try bindings.append(holdTokens)
            case .changeWrites: try bindings.append(changeWrites)
            case .changeKeys: try bindings.append(changeKeys)
            case .changeStatuses: try bindings.append(changeStatuses)
            case .changeOutputs: try bindings.append(changeOutputs)
            case .changeReasons: try bindings.append(changeReasons)
            case .changeKinds: try bindings.append(changeKinds)
            case .changePayloads: try bindings.append(changePayloads)
            case .changeParents: try bindings.append(changeParents)
            }
        }
        return bindings
    }
}
