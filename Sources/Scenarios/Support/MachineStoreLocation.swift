import BehaviorKitSQLite
public import DurableMachines

#if PostgreSQL
import BehaviorKitPostgres
#endif

/// Where the CLI's `--store` points: a SQLite file's path, or a `postgres://` URL.
public enum MachineStoreLocation {
    /// Opens the machine store at `location`.
    public static func open(_ location: String) async throws -> any MachineStore {
        if JournalLocation.isServerURL(location) {
            #if PostgreSQL
            return try await PostgresMachineStore(url: location)
            #else
            throw PostgreSQLTraitMissing()
            #endif
        }
        return try SQLiteMachineStore(path: location)
    }
}

/// A location the CLI cannot open.
struct MachineStoreLocationError: Error, CustomStringConvertible {
    let description: String
}
