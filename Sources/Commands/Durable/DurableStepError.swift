/// Why a step's output could not be recorded or read back.
///
/// ```swift
/// do { _ = try context.output(ofStep: 3, as: PaymentID.self) } catch {
///     print(error)  // step 4 of 'order-42/3' has no output: it has not finished
/// }
/// ```
public enum DurableStepError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step has not finished, so it has no output yet.
    case missingOutput(key: String, step: Int)
    /// The recorded output does not decode as the type asked for.
    case undecodableOutput(key: String, reason: String)
    /// The step's output could not be encoded.
    case unencodableOutput(key: String, reason: String)

    /// Names the record and the problem.
    public var description: String {
        switch self {
        case .missingOutput(let key, let step): "step \(step + 1) ('\(key)') has no output: it has not finished"
        case .undecodableOutput(let key, let reason): "the output of '\(key)' does not decode (\(reason))"
        case .unencodableOutput(let key, let reason): "the output of '\(key)' cannot be encoded (\(reason))"
        }
    }
}
