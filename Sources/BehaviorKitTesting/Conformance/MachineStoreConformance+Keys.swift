import Commands
import DurableMachines
import StateMachines

extension MachineStoreConformance {
    static func keysAndIdsAreKeptExactlyOrRefused(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "a key or an event id with a NUL character, or not in NFC, is refused before anything is written"
        let orders = machine(store, clock)
        for key in ["a\u{0}b", "cafe\u{301}"] {
            do {
                try await orders.start(key, context: ConformanceOrder())
                try expect(false, check, "the instance key \(key.debugDescription) was taken")
            } catch let error as InvalidKeyError {
                try expect(error.key == key && error.role == "instance key", check, "\(error)")
            }
            try expect(
                try await orders.instance(String(key.prefix(1))) == nil, check,
                "a refused key left the instance \(key.prefix(1).debugDescription)")
        }
        // A precomposed key is kept exactly, and read back by its own bytes.
        try await orders.start("café", context: ConformanceOrder())
        try expect(try await orders.instance("café") != nil, check, "the NFC key café was not kept")
        try await orders.start("k", context: ConformanceOrder())
        try await orders.send(.count, to: "k", id: "req-1")
        do {
            try await orders.send(.count, to: "k", id: "req-1\u{0}2")
            try expect(false, check, "the event id \"req-1\\0-2\" was taken")
        } catch let error as InvalidKeyError {
            try expect(error.role == "event id", check, "\(error)")
        }
        let count = try await orders.instance("k")?.context.count
        try expect(count == 1, check, "the refused event changed the count to \(String(describing: count))")
    }

    static func callerEventIdsCannotReachTheMachinesOwn(_ store: any MachineStore, _ clock: ManualClock) async throws {
        let check = "a caller's event id cannot take the place of a timer's, an effect's or a report's"
        let orders = try await machineStarted(store, clock)
        for prefix in ConformanceMachine.reservedEventIDPrefixes {
            let id = "\(prefix)a"
            do {
                try await orders.send(.count, to: "a", id: id)
                try expect(false, check, "the id \(id) was taken")
            } catch let error as DurableMachineError {
                try expect(error == .reservedEventID(id, prefix: prefix), check, "\(error)")
            }
        }
        // The timer of placed's visit fires, whatever ids callers chose.
        await clock.advance(by: .seconds(11))
        let fired = try await orders.fireDueTimers()
        let a = try await orders.instance("a")
        try expect(
            fired.count == 1 && a?.state == .cancelled && a?.context.count == 0, check,
            "fired \(fired.count), the order is \(String(describing: a?.state)), count \(String(describing: a?.context.count))"
        )
    }
}
