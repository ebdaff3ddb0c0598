import Commands
import Foundation
import PostgresNIO

/// What a journal's errors name: its server, database and table; and how the errors of
/// postgres-nio and the server map onto ``PostgresCommandJournalError``.
struct PostgresJournalNames: Sendable, Hashable {
    var server: String
    var database: String
    var table: String

    func error(_ code: PostgresCommandJournalError.Code, _ reason: String) -> PostgresCommandJournalError {
        PostgresCommandJournalError(code: code, server: server, database: database, table: table, reason: reason)
    }

    /// `error` as the journal throws it: its own as it is, postgres-nio's mapped to a code and
    /// the server's words.
    func error(_ error: any Error) -> PostgresCommandJournalError {
        switch error {
        case let error as PostgresCommandJournalError: return error
        case let error as PSQLError: return self.error(error)
        case is CancellationError: return self.error(.ioFailed, "cancelled")
        default: return self.error(.ioFailed, "\(error)")
        }
    }

    func error(_ error: PSQLError) -> PostgresCommandJournalError {
        if error.code == .server, let state = error.serverInfo?[.sqlState] {
            let message = error.serverInfo?[.message] ?? "SQLSTATE \(state)"
            let reason = "\(message) (SQLSTATE \(state))"
            return self.error(Self.code(sqlState: state), reason)
        }
        switch error.code {
        case .poolClosed: return self.error(.closed, "the connection pool is closed")
        case .queryCancelled: return self.error(.timedOut, "the request was cancelled")
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .connectionError:
            return self.error(.ioFailed, "the connection to the server was lost (\(error.code))")
        case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
            return self.error(.authenticationFailed, "\(error.code)")
        default:
            return self.error(.ioFailed, "\(error.code)")
        }
    }

    /// The code for a server error: connection and authentication classes apart, every other
    /// refusal is `.queryFailed` (the statement's transaction rolled back).
    static func code(sqlState state: String) -> PostgresCommandJournalError.Code {
        switch state {
        case "28000", "28P01": .authenticationFailed
        case "3D000", "53300", "57P03": .cannotConnect
        case _ where state.hasPrefix("08") || state.hasPrefix("57"): .ioFailed
        default: .queryFailed
        }
    }

    /// The error for a connection attempt the pool logged as failed (`String(reflecting:)` of
    /// its error): the server's message and SQLSTATE when it answered, or the system's reason.
    func connectError(_ logged: String) -> PostgresCommandJournalError {
        if let state = Self.field("sqlState", in: logged) {
            let message = Self.field("message", in: logged) ?? "the server refused the connection"
            let code = Self.code(sqlState: state)
            return error(
                code == .queryFailed || code == .ioFailed ? .cannotConnect : code, "\(message) (SQLSTATE \(state))")
        }
        let known: [(String, String)] = [
            ("Connection refused", "connection refused: no server listens there"),
            ("No such file or directory", "no such socket: no server is running there"),
            ("Permission denied", "permission denied on the socket"),
            ("Network is unreachable", "the network is unreachable"),
            ("connectTimeout", "the server did not answer in time"),
            ("Name or service not known", "unknown host name"),
            ("NXDOMAIN", "unknown host name"),
        ]
        if let (_, reason) = known.first(where: { logged.contains($0.0) }) { return error(.cannotConnect, reason) }
        return error(.cannotConnect, String(logged.prefix(400)))
    }

    /// The value of `name: value` in a PSQLError's debug description, up to the next field.
    static func field(_ name: String, in text: String) -> String? {
        guard let start = text.range(of: "\(name): ") else { return nil }
        let rest = text[start.upperBound...]
        let ends = [", routine: ", ", position: ", ", localizedSeverity: ", ", severity: ", ", sqlState: ", "]"]
        let end = ends.compactMap { rest.range(of: $0)?.lowerBound }.min() ?? rest.endIndex
        return String(rest[..<end])
    }
}
