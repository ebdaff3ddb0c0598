public import Commands

/// The garage of scenario 1: a vehicle, three receivers that do the real work, and the
/// commands that wrap them.
public enum Garage {
    /// A vehicle to register.
    public struct Vehicle: Hashable, Sendable, Codable {
        /// The vehicle's id.
        public let id: Int
        /// The vehicle's name.
        public let name: String

        /// Creates a vehicle.
        public init(id: Int, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// The backend refused a vehicle.
    public struct BackendError: Error, CustomStringConvertible, Sendable {
        /// The vehicle refused.
        public let vehicle: Vehicle

        /// Names the vehicle.
        public var description: String { "the backend refused the vehicle '\(vehicle.name)' (id \(vehicle.id))" }
    }

    /// The backend API: sends vehicles, and fails when told to.
    public final class BackendAPI: Sendable {
        let console: Console
        let fails: Bool

        /// Creates a backend that prints to `console` and fails every send when `fails`.
        public init(console: Console, fails: Bool) {
            self.console = console
            self.fails = fails
        }

        /// Sends the vehicle to the backend.
        public func send(_ vehicle: Vehicle) throws(BackendError) {
            console.print("Sending the vehicle '\(vehicle.name)' to backend!")
            guard !fails else {
                console.print("Failure")
                throw BackendError(vehicle: vehicle)
            }
            console.print("Success")
        }

        /// Deletes the vehicle from the backend.
        public func delete(_ vehicle: Vehicle) {
            console.print("Deleted the vehicle '\(vehicle.name)' from backend")
        }
    }

    /// The database (the article's DAO).
    public final class Database: Sendable {
        let console: Console

        /// Creates a database that prints to `console`.
        public init(console: Console) {
            self.console = console
        }

        /// Saves the vehicle.
        public func save(_ vehicle: Vehicle) {
            console.print("Saved the vehicle '\(vehicle.name)' to DB!")
        }

        /// Deletes the vehicle.
        public func delete(_ vehicle: Vehicle) {
            console.print("Deleted the vehicle '\(vehicle.name)' from database")
        }
    }

    /// The audit log: appends a line per vehicle, and cannot take it back.
    public final class AuditLog: Sendable {
        let console: Console

        /// Creates an audit log that prints to `console`.
        public init(console: Console) {
            self.console = console
        }

        /// Appends a line about the vehicle.
        public func append(_ vehicle: Vehicle) {
            console.print("This class will append the logfile with a vehicle '\(vehicle.name)'")
        }

        /// Says that a log line cannot be taken back; counts as success.
        public func undo() {
            console.print("Cannot undo a logging operation")
        }
    }

    /// "add to API": sends the vehicle; undo deletes it from the backend.
    public static func addToAPI(_ vehicle: Vehicle, _ api: BackendAPI) -> ReceiverCommand<BackendAPI> {
        ReceiverCommand("add to API", on: api) {
            try $0.send(vehicle)
        } undo: {
            $0.delete(vehicle)
        }
    }

    /// "save to DB": saves the vehicle; undo deletes it from the database.
    public static func saveToDB(_ vehicle: Vehicle, _ database: Database) -> ReceiverCommand<Database> {
        ReceiverCommand("save to DB", on: database) {
            $0.save(vehicle)
        } undo: {
            $0.delete(vehicle)
        }
    }

    /// "log": appends to the audit log; undo says it cannot.
    public static func log(_ vehicle: Vehicle, _ log: AuditLog) -> ReceiverCommand<AuditLog> {
        ReceiverCommand("log", on: log) {
            $0.append(vehicle)
        } undo: {
            $0.undo()
        }
    }
}
