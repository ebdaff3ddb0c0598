/// What a journaled command or step knows about the record it runs under: its key (an
/// idempotency key to pass on to a payment API, say), the worker that holds it, which attempt
/// this is, and the outputs of the steps before it.
///
/// ```swift
/// struct Ship: JournaledStep {
///     static let journalKind = "shop.ship"
///     let order: Int
///     var name: String { "ship order \(order)" }
///     func execute(in context: DurableContext) async throws -> Tracking {
///         let payment = try context.output(ofStep: 1, as: PaymentID.self)  // what the charge returned
///         return try await Carrier.ship(order, paid: payment, idempotencyKey: context.key)
///     }
///     func compensate(_ tracking: Tracking?, in context: DurableContext) async throws { … }
/// }
/// ```
///
/// While a journaled command runs, ``current`` holds its context, so that a plain ``Command``
/// can read it too.
public struct DurableContext: Sendable, Hashable {
    /// The key of the record this runs under: a step's (`"order-42/1"`) or a command's.
    public let key: String
    /// The transaction's key, for a step; `nil` for a command of its own.
    public let transactionKey: String?
    /// The step's position in its transaction, from 0; `nil` for a command of its own.
    public let stepIndex: Int?
    /// The worker that holds the record.
    public let owner: String
    /// 1 on the first run; more when a worker took the work over after another stopped. It is
    /// also the attempt's ``fencingToken``.
    public let attempt: Int
    /// The encoded outputs of the steps that finished before this one, by position.
    public let outputs: [Int: [UInt8]]
    /// While a step is compensated, why its transaction rolls back, as the journal recorded it:
    /// the failed step's error (also after a takeover), or the reason it was cancelled; `nil`
    /// while steps run forward, and when the rollback has no recorded cause (a recovery that
    /// compensates a transaction its stopped worker left).
    ///
    /// ```swift
    /// } compensate: { charge, payment, context in
    ///     try await bank.refund(payment, note: context.compensationCause ?? "rolled back")
    /// }
    /// ```
    public let compensationCause: String?

    /// Creates a context.
    public init(
        key: String, transactionKey: String? = nil, stepIndex: Int? = nil, owner: String, attempt: Int = 1,
        outputs: [Int: [UInt8]] = [:], compensationCause: String? = nil
    ) {
        self.key = key
        self.transactionKey = transactionKey
        self.stepIndex = stepIndex
        self.owner = owner
        self.attempt = attempt
        self.outputs = outputs
        self.compensationCause = compensationCause
    }

    /// The attempt's fencing token: greater for every later attempt at the record (each claim
    /// adds one). The journal refuses every write of an attempt once a later one began; pass
    /// the token to a partner too, so that it refuses a stale attempt's call — one that a
    /// worker paused past its lease made before it found out:
    ///
    /// ```swift
    /// // The partner keeps, per key, the greatest token it accepted, and refuses a smaller one.
    /// try await payments.charge(order, idempotencyKey: context.key, fencingToken: context.fencingToken)
    /// ```
    ///
    /// ```sql
    /// UPDATE payment SET state = 'charged', token = $2 WHERE key = $1 AND token <= $2  -- 0 rows: stale
    /// ```
    public var fencingToken: Int { attempt }

    /// The context of the journaled command running on this task, if any.
    @TaskLocal public static var current: DurableContext?

    /// What step `index` returned, decoded.
    ///
    /// - Throws: ``DurableStepError`` naming the step when it has no output (it did not finish
    ///   before this one) or its output does not decode as `T`.
    public func output<T: Decodable>(ofStep index: Int, as type: T.Type = T.self) throws(DurableStepError) -> T {
        guard let bytes = outputs[index] else {
            throw .missingOutput(key: transactionKey.map { "\($0)/\(index)" } ?? key, step: index)
        }
        return try StepOutput.decode(T.self, from: bytes, key: transactionKey.map { "\($0)/\(index)" } ?? key)
    }
}
