import Commands
import Logging
import StateMachines

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DurableMachine {
    /// The answer to an event id seen before: the step recorded then, with
    /// ``MachineStep/isReplay`` set. A recorded step the definition cannot read (a state renamed
    /// since, without a `migrateStep` hook) is answered all the same — a replay, at its sequence
    /// and time, of the trigger sent now, without its transitions, in the configuration of
    /// `instance` (the instance as it stands) — and a warning is logged: a retried request is
    /// never refused for it.
    func replay(
        _ recorded: MachineStepRecord, of trigger: MachineTrigger<State, Event>, key: MachineKey,
        instance: MachineInstanceRecord?
    ) throws -> MachineStep<State, Event> {
        do {
            return try decodeStep(recorded, key: key, replay: true)
        } catch let error as DurableMachineError {
            instruments.logger?.warning(
                "a replayed event's recorded step cannot be read; answered without its transitions",
                metadata: ["machine": "\(name)", "step": "\(recorded.sequence)", "reason": "\(error)"])
            return MachineStep(
                sequence: recorded.sequence, eventID: recorded.eventID, at: recorded.at, trigger: trigger,
                outcome: nil, transitions: [],
                configuration: try instance.map { try restore($0).machine.configuration } ?? [],
                isReplay: true)
        }
    }

    /// The steps of history `records` hold, leaving out (with a logged warning) those the
    /// definition cannot read and no `migrateStep` hook reads.
    func readableSteps(_ records: [MachineStepRecord], key: MachineKey) -> [MachineStep<State, Event>] {
        records.compactMap { record in
            do {
                return try decodeStep(record, key: key, replay: false)
            } catch {
                instruments.logger?.warning(
                    "a step of the history cannot be read and is left out; give the machine a migrateStep hook",
                    metadata: [
                        "machine": "\(name)", "key": "\(key.key)", "step": "\(record.sequence)",
                        "reason": "\(error)",
                    ])
                return nil
            }
        }
    }
}
