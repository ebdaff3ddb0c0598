import BehaviorKitSync
import Commands
import Foundation
import PostgresNIO

/// What a journal's errors name: its server, database and table; and how the errors of
/// postgres-nio and the server map onto ``PostgresStoreError``.
struct PostgresJournalNames: Sendable, Hashable {
    var server: String
    var database: String
    var table: String

    func error(_ code: PostgresStoreError.Code, _ reason: String) -> PostgresStoreError {
        PostgresStoreError(code: code, server: server, database: database, table: table, reason: reason)
    }

    /// `error` as the journal throws it: its own as it is, postgres-nio's mapped to a code and
    /// the server's words.
    func error(_ error: any Error) -> PostgresStoreError {
        switch error {
        case let error as PostgresStoreError: return error
        case let error as PSQLError: return self.error(error)
        case is CancellationError: return self.error(.ioFailed, "cancelled")
        default: return self.error(.ioFailed, "\(error)")
        }
    }

    func error(_ error: PSQLError) -> PostgresStoreError {
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
    static func code(sqlState state: String) -> PostgresStoreError.Code {
        switch state {
        case "28000", "28P01": .authenticationFailed
        case "3D000", "53300", "57P03": .cannotConnect
        case _ where state.hasPrefix("08") || state.hasPrefix("57"): .ioFailed
        default: .queryFailed
        }
    }

    /// The error for a connection attempt the pool logged as failed (`String(reflecting:)` of
    /// its error): the server's message and SQLSTATE when it answered, or the system's reason.
    func connectError(_ logged: String) -> PostgresStoreError {
        if let state = Self.field("sqlState", in: logged) {
            let message = Self.field("message", in: logged) ?? "the server refused the connection"
            let code = Self.code(sqlState: state)
            return error(
                code == .queryFailed || code == .ioFailed ? .cannotConnect : code, "\(message) (SQLSTATE \(state))")
        }
        let known: [(String, String)] = [
            ("Connection refused", "connection refused: no server listens there"),
            ("Connection reset by peer", "the server reset the connection"),
            ("Broken pipe", "the server closed the connection"),
            ("Connection timed out", "the connection timed out"),
            ("No such file or directory", "no such socket: no server is running there"),
            ("Permission denied", "permission denied on the socket"),
            ("Network is unreachable", "the network is unreachable"),
            ("connectTimeout", "the server did not answer in time"),
            ("Name or service not known", "unknown host name"),
            ("NXDOMAIN", "unknown host name"),
        ]
        if let (_, reason) = known.first(where: { logged.contains($0.0) }) { return error(.cannotConnect, reason) }
        let ends = [", ", ")"]
        if let code = Self.field("code", in: logged, endingAlsoAt: ends) {
            let underlying =
                logged.range(of: "underlying: ").map { start in
                    ": "
                        + logged[start.upperBound...].trimmingCharacters(in: CharacterSet(charactersIn: ") ")).prefix(
                            160)
                } ?? ""
            return error(.cannotConnect, "\(code)\(underlying)")
        }
        return error(.cannotConnect, String(logged.prefix(200)))
    }

    /// Whether a connection attempt the pool logged as failed may succeed later: the server
    /// was away, starting, stopping or full; not when it refused the user or the database.
    static func isTransient(connectFailure logged: String) -> Bool {
        guard let state = field("sqlState", in: logged) else {
            return !["unsupportedAuthMechanism", "authMechanismRequiresPassword", "saslError", "sslUnsupported"]
                .contains { logged.contains($0) }
        }
        return isTransient(sqlState: state)
    }

    /// Whether a server's SQLSTATE says it went away or cannot take the connection now.
    static func isTransient(sqlState state: String) -> Bool {
        state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300", "53400"].contains(state)
    }

    /// Whether `error`, raised by a request on a connection, says the connection or the server
    /// went away, rather than that the server refused the request.
    static func isConnectionLoss(_ error: any Error) -> Bool {
        if error is ImplicitCommit.Unconfirmed || error is ConnectionClosedBeforeSending { return true }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .connectionError: return true
        case .server: return error.serverInfo?[.sqlState].map(isTransient(sqlState:)) ?? false
        default: return false
        }
    }

    /// The error of a request that could not reach the server for `deadline`.
    func unreachable(for deadline: Duration, _ cause: String) -> PostgresStoreError {
        error(.unreachable, "for \(Self.seconds(deadline)): \(cause)")
    }

    /// `duration` as people read it: `30 s`, `2.5 s`, `250 ms`.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.wholeNanoseconds / 1_000_000
        if milliseconds < 1_000 { return "\(milliseconds) ms" }
        if milliseconds % 1_000 == 0 { return "\(milliseconds / 1_000) s" }
        return "\(milliseconds / 1_000).\(milliseconds % 1_000 / 100) s"
    }

    /// The value of `name: value` in a PSQLError's debug description, up to the next field.
    static func field(_ name: String, in text: String, endingAlsoAt more: [String] = []) -> String? {
        guard let start = text.range(of: "\(name): ") else { return nil }
        let rest = text[start.upperBound...]
        let fields = [
            "routine", "position", "localizedSeverity", "severity", "sqlState", "file", "line", "message", "detail",
            "hint",
        ]
        let ends = fields.map { ", \($0): " } + ["]"] + more
        let end = ends.compactMap { rest.range(of: $0)?.lowerBound }.min() ?? rest.endIndex
        return String(rest[..<end])
    }
}
