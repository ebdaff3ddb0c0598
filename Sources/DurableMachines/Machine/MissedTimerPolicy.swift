public import Commands

/// What a durable timer does when it comes due while no worker runs, and is found late:
/// `Commands.MissedTimerPolicy`, the vocabulary durable machines share with the queue's
/// schedules, named here so that code importing only DurableMachines keeps compiling.
public typealias MissedTimerPolicy = Commands.MissedTimerPolicy
