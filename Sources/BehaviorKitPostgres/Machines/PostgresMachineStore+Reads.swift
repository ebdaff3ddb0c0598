import Commands
public import DurableMachines
public import Foundation
import PostgresNIO

extension PostgresMachineStore {
    /// The instance of `key` with its active states, read in one statement; see
    /// `MachineStore.instance(_:)`.
    public func instance(_ key: MachineKey) async throws -> MachineInstanceRecord? {
        try committer.validate([key.machine, key.key])
        return try await read { connection in try await self.instance(key, reading: connection) }
    }

    /// The instance of `key` as `connection` sees it (in its transaction, when it is in one).
    func instance(_ key: MachineKey, reading connection: PostgresConnection) async throws -> MachineInstanceRecord? {
        let names = connections.names
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(key.machine)
        bindings.append(key.key)
        guard let row = try await connection.run(sql.instance, bindings, logger: connections.logger).first else {
            return nil
        }
        let values = PostgresJournalRow(row, names)
        let states = try values.value(4, as: [String].self)
        let entered = try values.value(5, as: [Int64].self)
        guard states.count == entered.count else {
            throw names.error(.malformedRecord, "\(key) has \(states.count) states but \(entered.count) times")
        }
        return MachineInstanceRecord(
            key: key, version: try values.value(0), snapshot: try values.bytes(1) ?? [],
            states: zip(states, entered).map {
                MachineStateEntry(key: key.key, state: $0, enteredAt: Date(journalMilliseconds: $1))
            },
            createdAt: Date(journalMilliseconds: try values.value(2)),
            updatedAt: Date(journalMilliseconds: try values.value(3)))
    }

    /// The step of `key` whose event had `eventID`; see `MachineStore.step(_:eventID:)`.
    public func step(_ key: MachineKey, eventID: String) async throws -> MachineStepRecord? {
        try committer.validate([key.machine, key.key, eventID])
        return try await steps(sql.stepByEvent, key) { $0.append(eventID) }.first
    }

    /// The steps of `key` after `sequence`, oldest first; see `MachineStore.history(_:after:limit:)`.
    public func history(_ key: MachineKey, after sequence: Int64, limit: Int) async throws -> [MachineStepRecord] {
        try committer.validate([key.machine, key.key])
        return try await steps(sql.history, key) { bindings in
            bindings.append(sequence)
            bindings.append(Self.limit(limit))
        }
    }

    private func steps(
        _ statement: PreparedJournalStatement.Text, _ key: MachineKey, _ more: (inout PostgresBindings) -> Void
    ) async throws(PostgresStoreError) -> [MachineStepRecord] {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(key.machine)
        bindings.append(key.key)
        more(&bindings)
        return try await rows(statement, bindings) { values in
            MachineStepRecord(
                sequence: try values.value(0), eventID: try values.value(1),
                at: Date(journalMilliseconds: try values.value(2)), body: try values.bytes(3) ?? [])
        }
    }

    /// Up to `limit` timers of `machine` due by `date`, the earliest first (then by key and id);
    /// see `MachineStore.dueTimers(machine:dueBy:limit:)`.
    public func dueTimers(machine: String, dueBy date: Date, limit: Int) async throws -> [MachineTimerRecord] {
        try committer.validate([machine])
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(machine)
        bindings.append(date.journalMilliseconds)
        bindings.append(Self.limit(limit))
        return try await rows(sql.dueTimers, bindings) { values in
            MachineTimerRecord(
                key: MachineKey(machine: machine, key: try values.value(0)), id: try values.value(1),
                dueAt: Date(journalMilliseconds: try values.value(2)), body: try values.bytes(3) ?? [])
        }
    }

    /// The earliest due time among `machine`'s timers; see `MachineStore.nextTimerDue(machine:)`.
    public func nextTimerDue(machine: String) async throws -> Date? {
        try committer.validate([machine])
        let (statement, names, logger) = (sql.nextTimerDue, connections.names, connections.logger)
        return try await read { connection in
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(machine)
            guard let row = try await connection.run(statement, bindings, logger: logger).first else { return nil }
            return try PostgresJournalRow(row, names).value(0, as: Int64?.self).map(Date.init(journalMilliseconds:))
        }
    }

    /// The instances of `machine` with `state` active, in order of entry then key, from the
    /// index on (machine, state, entered_at, key); see
    /// `MachineStore.keys(machine:in:enteredBefore:after:limit:)`.
    public func keys(
        machine: String, in state: String, enteredBefore date: Date?, after cursor: MachineStateEntry?, limit: Int
    ) async throws -> [MachineStateEntry] {
        try committer.validate([machine, state, cursor?.key])
        let statement =
            switch (date, cursor) {
            case (nil, nil): sql.keys
            case (_?, nil): sql.keysBefore
            case (nil, _?): sql.keysAfter
            case (_?, _?): sql.keysBeforeAndAfter
            }
        var bindings = PostgresBindings(capacity: 6)
        bindings.append(machine)
        bindings.append(state)
        bindings.append(Self.limit(limit))
        if let date { bindings.append(date.journalMilliseconds) }
        if let cursor {
            bindings.append(cursor.enteredAt.journalMilliseconds)
            bindings.append(cursor.key)
        }
        return try await rows(statement, bindings) { values in
            MachineStateEntry(
                key: try values.value(0), state: try values.value(1),
                enteredAt: Date(journalMilliseconds: try values.value(2)))
        }
    }

    /// How many instances of `machine` have each state active; see
    /// `MachineStore.countsByState(machine:)`.
    public func countsByState(machine: String) async throws -> [String: Int] {
        try committer.validate([machine])
        let (statement, names, logger) = (sql.countsByState, connections.names, connections.logger)
        return try await read { connection in
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(machine)
            var counts: [String: Int] = [:]
            for row in try await connection.run(statement, bindings, logger: logger) {
                let values = PostgresJournalRow(row, names)
                counts[try values.value(0, as: String.self)] = Int(clamping: try values.value(1, as: Int64.self))
            }
            return counts
        }
    }

    /// Deletes the history rows of `machine` committed before `date`, except each instance's
    /// latest, in one statement; see `MachineStore.pruneHistory(machine:before:)`.
    public func pruneHistory(machine: String, before date: Date) async throws -> Int {
        try committer.validate([machine])
        let (statement, names, logger) = (sql.pruneHistory, connections.names, connections.logger)
        return try await write { connection in
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(machine)
            bindings.append(date.journalMilliseconds)
            guard let row = try await connection.run(statement, bindings, logger: logger).first else { return 0 }
            return Int(clamping: try PostgresJournalRow(row, names).value(0, as: Int64.self))
        }
    }
}
