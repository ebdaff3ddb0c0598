import Foundation
import PostgresNIO

/// Where a journal's server is: the pool's configuration, and the names errors give.
struct PostgresJournalEndpoint: Sendable {
    var configuration: PostgresClient.Configuration
    /// `host:port`, or the Unix socket's path.
    var server: String
    var database: String
    /// The URL's `reconnect_timeout`: how long a request keeps trying to reach the server.
    var reconnectTimeout: Duration?

    init(configuration: PostgresClient.Configuration) {
        self.configuration = configuration
        if let path = configuration.unixSocketPath {
            server = path
        } else {
            let host = configuration.host ?? "localhost"
            server = (host.contains(":") ? "[\(host)]" : host) + ":\(configuration.port ?? 5432)"
        }
        database = configuration.database.flatMap { $0.isEmpty ? nil : $0 } ?? configuration.username
    }

    /// Parses a libpq-style URL: `postgres://user:password@host:port/database?param=value`.
    /// A host that is a folder (`?host=/var/run/postgresql`, or `%2F…` in the host part) means
    /// the Unix socket `.s.PGSQL.<port>` in it. Parameters: `host`, `port`, `user`, `password`,
    /// `dbname`, `sslmode` (`disable`, `allow`, `prefer`, `require`, `verify-ca`, `verify-full`, as
    /// libpq: only the `verify-` modes check the certificate), `connect_timeout` (seconds),
    /// `application_name`; and the journal's own `reconnect_timeout` (seconds: how long a request
    /// keeps trying to reach the server; see ``PostgresCommandJournal/Reconnection``).
    init(url: String, table: String) throws(PostgresStoreError) {
        let parts = try PostgresURLParts(url, table: table)
        let port = parts.port ?? 5432
        let user = parts.user ?? ProcessInfo.processInfo.userName
        let database = parts.database ?? user
        var configuration: PostgresClient.Configuration
        if parts.host.hasPrefix("/") {
            let path = (parts.host.hasSuffix("/") ? parts.host : parts.host + "/") + ".s.PGSQL.\(port)"
            configuration = .init(unixSocketPath: path, username: user, password: parts.password, database: database)
        } else {
            let tls = try parts.tls()
            configuration = .init(
                host: parts.host, port: port, username: user, password: parts.password, database: database, tls: tls)
        }
        if let timeout = parts.connectTimeout {
            configuration.options.connectTimeout = timeout > 0 ? .seconds(timeout) : .seconds(86_400)
        }
        if let name = parts.applicationName {
            configuration.options.additionalStartupParameters.append(("application_name", name))
        }
        self.init(configuration: configuration)
        reconnectTimeout = parts.reconnectTimeout.map { .seconds($0) }
    }
}

/// The pieces of a `postgres://` URL, percent-decoded.
struct PostgresURLParts {
    var host = "localhost"
    var port: Int?
    var user: String?
    var password: String?
    var database: String?
    var sslMode = "prefer"
    var connectTimeout: Int?
    var applicationName: String?
    var reconnectTimeout: Int?
    let masked: String
    let table: String

    init(_ url: String, table: String) throws(PostgresStoreError) {
        self.table = table
        masked = Self.mask(url)
        let lowered = url.lowercased()
        guard let scheme = ["postgres://", "postgresql://"].first(where: { lowered.hasPrefix($0) }) else {
            throw Self.invalid(masked, table, "a journal URL starts with postgres:// or postgresql://")
        }
        let rest = url.dropFirst(scheme.count)
        let (main, query) = Self.split(rest, at: "?")
        let (authority, path) = Self.split(main, at: "/")
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            let (user, password) = Self.split(authority[..<at], at: ":")
            self.user = try decode(user, "user name")
            self.password = try password.map { password throws(PostgresStoreError) in
                try decode(password, "password")
            }
            hostPort = authority[authority.index(after: at)...]
        }
        try parseHostPort(hostPort)
        if let path, !path.isEmpty { database = try decode(path, "database name") }
        for parameter in (query ?? "").split(separator: "&") where !parameter.isEmpty {
            let (name, value) = Self.split(parameter, at: "=")
            try apply(String(name), try decode(value ?? "", "parameter \(name)"))
        }
        if user?.isEmpty == true { user = nil }
        if database?.isEmpty == true { database = nil }
    }

    /// The TLS mode `sslmode` asks for, with libpq's meaning.
    func tls() throws(PostgresStoreError) -> PostgresClient.Configuration.TLS {
        var unchecked = TLSConfiguration.makeClientConfiguration()
        unchecked.certificateVerification = .none
        switch sslMode {
        case "disable": return .disable
        case "allow", "prefer": return .prefer(unchecked)
        case "require": return .require(unchecked)
        case "verify-ca":
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .noHostnameVerification
            return .require(configuration)
        case "verify-full": return .require(.makeClientConfiguration())
        default:
            throw Self.invalid(
                masked, table,
                "sslmode '\(sslMode)' is not one of disable, allow, prefer, require, verify-ca, verify-full")
        }
    }

    private mutating func parseHostPort(_ text: Substring) throws(PostgresStoreError) {
        guard !text.contains(",") else {
            throw Self.invalid(masked, table, "several hosts in one URL are not supported")
        }
        var hostText = text
        var portText: Substring?
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            hostText = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() }
        } else if let colon = text.firstIndex(of: ":") {
            hostText = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        let host = try decode(hostText, "host")
        if !host.isEmpty { self.host = host }
        if let portText { try apply("port", String(portText)) }
    }

    private mutating func apply(_ name: String, _ value: String) throws(PostgresStoreError) {
        switch name {
        case "host": if !value.isEmpty { host = value }
        case "port":
            guard let port = Int(value), (1...65_535).contains(port) else {
                throw Self.invalid(masked, table, "the port '\(value)' is not a number from 1 to 65535")
            }
            self.port = port
        case "user": user = value
        case "password": password = value
        case "dbname": database = value
        case "sslmode": sslMode = value
        case "application_name": applicationName = value
        case "connect_timeout":
            guard let seconds = Int(value), seconds >= 0 else {
                throw Self.invalid(masked, table, "connect_timeout '\(value)' is not a whole number of seconds")
            }
            connectTimeout = seconds
        case "reconnect_timeout":
            guard let seconds = Int(value), seconds >= 0, seconds <= 86_400 else {
                throw Self.invalid(
                    masked, table, "reconnect_timeout '\(value)' is not a whole number of seconds from 0 to 86400")
            }
            reconnectTimeout = seconds
        default:
            throw Self.invalid(
                masked, table,
                "unknown parameter '\(name)' (known: host, port, user, password, dbname, sslmode, connect_timeout, "
                    + "application_name, reconnect_timeout)")
        }
    }

    private func decode(_ text: some StringProtocol, _ what: String) throws(PostgresStoreError) -> String {
        guard let decoded = String(text).removingPercentEncoding else {
            throw Self.invalid(masked, table, "the \(what) has a malformed %-escape")
        }
        return decoded
    }

    private static func split(_ text: Substring, at separator: Character) -> (Substring, Substring?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (text[..<index], text[text.index(after: index)...])
    }

    static func invalid(_ url: String, _ table: String, _ reason: String) -> PostgresStoreError {
        PostgresStoreError(code: .invalidURL, server: url, database: "(unknown)", table: table, reason: reason)
    }

    /// The URL with its password (in the user part or a parameter) replaced by `***`.
    static func mask(_ url: String) -> String {
        var masked = url
        if let schemeEnd = masked.range(of: "://") {
            let authorityEnd = masked[schemeEnd.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? masked.endIndex
            let authority = masked[schemeEnd.upperBound..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                masked.replaceSubrange(masked.index(after: colon)..<at, with: "***")
            }
        }
        if let range = masked.range(of: "password=") {
            let end = masked[range.upperBound...].firstIndex(of: "&") ?? masked.endIndex
            masked.replaceSubrange(range.upperBound..<end, with: "***")
        }
        return masked
    }
}
