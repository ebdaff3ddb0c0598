import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A throwaway PostgreSQL cluster for tests and benchmarks: `initdb` into a new folder under
/// `/tmp`, `postgres` listening only on a Unix socket in that folder (`listen_addresses=''`),
/// stopped (`pg_ctl stop -m fast`) and the folder deleted at the end. It uses only Foundation,
/// so any test target, benchmark or tool can carry this file.
///
/// ```swift
/// guard PostgresTestCluster.unavailableReason == nil else { return }  // no PostgreSQL here
/// let cluster = try PostgresTestCluster.shared()       // one per process, stopped at exit
/// let database = try cluster.makeDatabase("orders")    // "orders_1"
/// let url = cluster.url(database: database)            // postgres://postgres@/orders_1?host=/tmp/…&port=5432
/// ```
///
/// The binaries are found on `PATH` or in `/usr/lib/postgresql/*/bin` (newest first). initdb
/// and postgres refuse to run as root: as root, they run as the `postgres` system user (made
/// by Debian's package) through `runuser` (or `setpriv`), with the folder given to that user.
final class PostgresTestCluster: @unchecked Sendable {
    /// The folder holding the data, the log and the socket.
    let folder: String
    /// The port in the socket's name (`.s.PGSQL.<port>`); nothing listens on TCP.
    let port: Int
    /// Whether commits wait for the disk (`fsync`); off makes tests faster.
    let durable: Bool
    /// Whether the server also listens on TCP, on 127.0.0.1 at ``port``.
    let tcp: Bool

    private let binaries: URL
    private let lock = NSLock()
    private var stopped = false
    private var databases = 0

    /// Why no cluster can be started here, or `nil` when one can: for skipping tests plainly.
    static var unavailableReason: String? {
        guard let bin = binaryFolder else {
            return "PostgreSQL's initdb and pg_ctl were not found on PATH or in /usr/lib/postgresql/*/bin"
        }
        guard geteuid() == 0 else { return nil }
        guard getpwnam("postgres") != nil else {
            return "running as root, and there is no 'postgres' user to run \(bin.path)/initdb as"
        }
        guard runAsPostgres != nil else { return "running as root, and neither runuser nor setpriv was found" }
        return nil
    }

    /// The cluster of this process, started on first use and stopped when the process exits.
    static func shared() throws -> PostgresTestCluster {
        sharedLock.lock()
        defer { sharedLock.unlock() }
        if let cluster = sharedCluster { return cluster }
        let cluster = try PostgresTestCluster()
        sharedCluster = cluster
        atexit { PostgresTestCluster.stopShared() }
        return cluster
    }

    /// ``shared()`` from async code: the start (initdb, pg_ctl, a few seconds) runs on a thread
    /// of its own, not on one of the few threads every task shares.
    static func shared() async throws -> PostgresTestCluster {
        try await offThread { try shared() }
    }

    /// ``makeDatabase(_:)`` from async code, on a thread of its own.
    func makeDatabase(_ prefix: String = "test") async throws -> String {
        try await Self.offThread { try self.makeDatabase(prefix) }
    }

    /// ``psql(_:database:)`` from async code, on a thread of its own.
    @discardableResult
    func psql(_ sql: String, database: String = "postgres") async throws -> String {
        try await Self.offThread { try self.psql(sql, database: database) }
    }

    /// Runs `work`, which blocks, on a new thread; returns what it returned.
    @discardableResult
    static func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// Stops the shared cluster, if one was started.
    static func stopShared() {
        sharedLock.lock()
        let cluster = sharedCluster
        sharedCluster = nil
        sharedLock.unlock()
        cluster?.stop()
    }

    /// Starts a new cluster; ``stop()`` it when done.
    ///
    /// - Parameters:
    ///   - durable: `fsync` on (for benchmarks); off by default, which is faster.
    ///   - tcp: listen on 127.0.0.1 too, at `port` (then pick a free one: ``freePort()``).
    init(durable: Bool = false, port: Int = 5432, tcp: Bool = false) throws {
        guard let binaries = Self.binaryFolder else {
            throw ClusterError(Self.unavailableReason ?? "PostgreSQL binaries not found")
        }
        self.binaries = binaries
        self.port = port
        self.durable = durable
        self.tcp = tcp
        var template = Array("/tmp/bk-pg-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ClusterError("cannot make a folder under /tmp") }
        folder = String(cString: made)
        do {
            try start()
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    deinit { stop() }

    /// A URL for `database` on the cluster's socket.
    func url(database: String) -> String {
        "postgres://postgres@/\(database)?host=\(folder)&port=\(port)"
    }

    /// A URL for `database` over TCP, at 127.0.0.1 (for a cluster started with `tcp`).
    func tcpURL(database: String) -> String {
        "postgres://postgres@127.0.0.1:\(port)/\(database)"
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ClusterError("cannot open a socket to find a free port") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else { throw ClusterError("cannot bind a socket to find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Creates a new database named `prefix` and a number; returns its name.
    func makeDatabase(_ prefix: String = "test") throws -> String {
        let name = lock.withLock {
            databases += 1
            return "\(prefix)_\(databases)"
        }
        try run("createdb", ["-h", folder, "-p", "\(port)", "-U", "postgres", name], asPostgres: false)
        return name
    }

    /// Runs one SQL command with `psql` in `database`; returns what it printed.
    @discardableResult
    func psql(_ sql: String, database: String = "postgres") throws -> String {
        try run(
            "psql",
            [
                "-h", folder, "-p", "\(port)", "-U", "postgres", "-d", database, "-XAtq", "-v", "ON_ERROR_STOP=1",
                "-c", sql,
            ],
            asPostgres: false)
    }

    /// Stops the server (`pg_ctl stop -m fast`) and deletes the folder. Idempotent.
    func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        _ = try? run("pg_ctl", ["-D", "\(folder)/data", "-m", "fast", "-w", "stop"], asPostgres: true)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Restarts the server as an operator would (`pg_ctl restart -m fast`): every backend is
    /// terminated, the server stops and starts again; returns once it accepts connections.
    func restartServer() throws {
        try run(
            "pg_ctl", ["-D", "\(folder)/data", "-l", "\(folder)/log", "-m", "fast", "-w", "-t", "60", "restart"],
            asPostgres: true)
    }

    /// Stops the server (`pg_ctl stop -m fast`) and keeps its folder, for ``startServer()``.
    func stopServer() throws {
        try run("pg_ctl", ["-D", "\(folder)/data", "-m", "fast", "-w", "-t", "60", "stop"], asPostgres: true)
    }

    /// Starts the server ``stopServer()`` stopped; returns once it accepts connections.
    func startServer() throws {
        try run(
            "pg_ctl", ["-D", "\(folder)/data", "-l", "\(folder)/log", "-w", "-t", "60", "-o", options, "start"],
            asPostgres: true)
    }

    /// Terminates every backend connected to `database` (`pg_terminate_backend`); returns how many.
    @discardableResult
    func terminateBackends(database: String) throws -> Int {
        let count = try psql(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                + "WHERE datname = '\(database)' AND pid <> pg_backend_pid()")
        return Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// The server's options: its socket in the folder, no TCP.
    private var options: String {
        let durability = durable ? "" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        let listen = tcp ? "127.0.0.1" : "''"
        return
            "-k \(folder) -p \(port) -c listen_addresses=\(listen) -c max_connections=300 -c shared_buffers=64MB"
            + durability
    }

    private func start() throws {
        if geteuid() == 0, let user = getpwnam("postgres") {
            guard chown(folder, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                throw ClusterError("cannot give \(folder) to the postgres user")
            }
        }
        try run(
            "initdb",
            ["-D", "\(folder)/data", "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
            asPostgres: true)
        try startServer()
    }

    /// Runs a binary of the cluster's folder; as root, as the postgres user when asked.
    @discardableResult
    private func run(_ tool: String, _ arguments: [String], asPostgres: Bool) throws -> String {
        let path = binaries.appendingPathComponent(tool).path
        var command = [path] + arguments
        if asPostgres, geteuid() == 0, let runAs = Self.runAsPostgres {
            command = [runAs.tool] + runAs.arguments + command
        }
        let outputPath = "/tmp/bk-pg-output-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status = try Self.spawn(command, output: outputPath)
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            let log = (try? String(contentsOfFile: "\(folder)/log", encoding: .utf8)) ?? ""
            throw ClusterError(
                "\(tool) \(arguments.joined(separator: " ")) failed (\(status)): \(text)\(log.suffix(2000))")
        }
        return text
    }

    /// Runs `command` with its output in the file `output`, and waits for it; returns its exit
    /// status. posix_spawn and waitpid rather than Foundation's `Process`, which waits for
    /// every descriptor it gave the child to close, and so forever on `pg_ctl start`, whose
    /// server keeps them; for the same reason the child gets no descriptor but 0, 1 and 2.
    private static func spawn(_ command: [String], output: String) throws -> Int32 {
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        #if canImport(Glibc)
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        }
        #endif
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw ClusterError("cannot run \(command[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw ClusterError("lost \(command[0]): \(String(cString: strerror(errno)))") }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    private static let sharedLock = NSLock()
    nonisolated(unsafe) private static var sharedCluster: PostgresTestCluster?

    /// The folder holding initdb, pg_ctl, createdb and psql.
    static let binaryFolder: URL? = {
        let tools = ["initdb", "pg_ctl", "createdb", "psql"]
        let manager = FileManager.default
        func holdsAll(_ folder: String) -> Bool {
            tools.allSatisfy { manager.isExecutableFile(atPath: "\(folder)/\($0)") }
        }
        let installed = ((try? manager.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
            .map { "/usr/lib/postgresql/\($0)/bin" }
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        // initdb on PATH may be a link into the versioned folder: resolve it to find pg_ctl beside it.
        let linked = path.compactMap { folder -> String? in
            let initdb = "\(folder)/initdb"
            guard manager.isExecutableFile(atPath: initdb) else { return nil }
            return URL(fileURLWithPath: initdb).resolvingSymlinksInPath().deletingLastPathComponent().path
        }
        return (linked + path + installed).first(where: holdsAll).map { URL(fileURLWithPath: $0) }
    }()

    /// How to run a command as the postgres user: `runuser -u postgres --`, or setpriv.
    static let runAsPostgres: (tool: String, arguments: [String])? = {
        let manager = FileManager.default
        for folder in ["/usr/sbin", "/sbin", "/usr/bin", "/bin"] {
            if manager.isExecutableFile(atPath: "\(folder)/runuser") {
                return ("\(folder)/runuser", ["-u", "postgres", "--"])
            }
        }
        for folder in ["/usr/bin", "/bin"] where manager.isExecutableFile(atPath: "\(folder)/setpriv") {
            return ("\(folder)/setpriv", ["--reuid=postgres", "--regid=postgres", "--init-groups"])
        }
        return nil
    }()

    struct ClusterError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = "PostgreSQL test cluster: \(description)" }
    }
}
