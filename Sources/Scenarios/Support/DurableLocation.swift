import BehaviorKitSQLite
public import Commands
public import DurableMachines

#if PostgreSQL
import BehaviorKitPostgres
#endif

/// A journal and a machine store at one location: a SQLite file opened as one `SQLiteStore`, or
/// a PostgreSQL database opened as one `PostgresStore` (one pool): either way a step and its
/// commands commit together.
public struct DurableLocation: Sendable {
    /// The machine store.
    public let machines: any MachineStore
    /// The journal.
    public let journal: any CommandJournalManagement

    /// Opens both at `location`.
    public static func open(_ location: String) async throws -> DurableLocation {
        if JournalLocation.isServerURL(location) {
            #if PostgreSQL
            let store = try await PostgresStore(url: location)
            return DurableLocation(machines: store.machines, journal: store.journal)
            #else
            throw PostgreSQLTraitMissing()
            #endif
        }
        let store = try SQLiteStore(path: location)
        return DurableLocation(machines: store.machines, journal: store.journal)
    }

    /// Closes both.
    public func close() async throws {
        try await machines.close()
        try await journal.close()
    }
}
