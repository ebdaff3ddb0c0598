/// What ``DurableTransaction/run()`` did: ran the transaction to the end now, or found it done
/// before, with the outputs of its steps either way.
///
/// ```swift
/// let result = try await order.run()
/// let payment = try result.output(ofStep: 1, as: PaymentID.self)
/// if result.status == .alreadyCompleted { … }  // a retried request: nothing ran again
/// ```
public struct DurableTransactionResult: Sendable, Hashable {
    /// How the transaction came to be done.
    public enum Status: Sendable, Hashable {
        /// It ran to the end now (or went on from where a stopped worker left it).
        case completed
        /// It had already completed: nothing ran.
        case alreadyCompleted
    }

    /// The transaction's key.
    public let key: String
    /// How it came to be done.
    public let status: Status
    /// The encoded outputs of its steps, by position (steps without an output have none).
    public let outputs: [Int: [UInt8]]

    /// Creates a result.
    public init(key: String, status: Status, outputs: [Int: [UInt8]]) {
        self.key = key
        self.status = status
        self.outputs = outputs
    }

    /// What step `index` returned, decoded.
    ///
    /// - Throws: ``DurableStepError`` naming the step.
    public func output<T: Decodable>(ofStep index: Int, as type: T.Type = T.self) throws(DurableStepError) -> T {
        guard let bytes = outputs[index] else { throw .missingOutput(key: "\(key)/\(index)", step: index) }
        return try StepOutput.decode(T.self, from: bytes, key: "\(key)/\(index)")
    }
}
