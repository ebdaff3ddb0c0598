#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The workflows a worker can run, by name: every process that runs a workflow's records
/// registers it, with the same name and code.
///
/// ```swift
/// var registry = WorkflowRegistry()
/// registry.register(checkout)
/// let workflows = Workflows(registry, queue: CommandQueue("workflows", journal: journal), invoker: invoker)
/// ```
public struct WorkflowRegistry: Sendable {
    typealias Runner = @Sendable (WorkflowContext, [UInt8]) async throws -> [UInt8]
    var runners: [String: Runner] = [:]
    /// The compensation policy of each workflow, by name.
    var compensations: [String: CompensationPolicy] = [:]

    /// Creates an empty registry.
    public init() {}

    /// The registered names, sorted.
    public var names: [String] { runners.keys.sorted() }

    /// Registers `workflow` under its name; a later registration of the name replaces it. Its
    /// runs compensate under `compensation` when given, else under the workflow's own
    /// ``Workflow/compensation``.
    public mutating func register<Input, Output>(
        _ workflow: Workflow<Input, Output>, compensation: CompensationPolicy? = nil
    ) {
        compensations[workflow.name] = compensation ?? workflow.compensation
        runners[workflow.name] = { context, bytes in
            let input: Input
            do {
                input = try JSONDecoder().decode(Input.self, from: Data(bytes))
            } catch {
                throw WorkflowError.undecodable(key: context.key, reason: "its input: \(error)")
            }
            let output = try await workflow.body(context, input)
            do {
                return try StepOutput.encode(output, key: context.key)
            } catch {
                throw WorkflowError.undecodable(key: context.key, reason: "its output: \(error)")
            }
        }
    }
}
