import Logging

/// The command line: `OrderService [--data DIR] [--host H] [--port P] [--lease S] …`.
struct Options: Sendable {
    var data = "data"
    /// Where the journal and the order lifecycles are kept: `nil` for SQLite files in the data
    /// folder, or a PostgreSQL URL (`postgres://user@host/database`) that several processes share.
    var database: String?
    /// Where the port the server listens on is written (default `<data>/server.port`).
    var portFile: String?
    var host = "127.0.0.1"
    /// 0: any free port (the port chosen is written to `<data>/server.port`).
    var port = 8080
    /// How long a worker's claim on a checkout lasts without renewal: how long a checkout left by
    /// a killed process waits before a worker takes it over.
    var lease: Duration = .seconds(30)
    /// How long after a charge the payment provider confirms it (its webhook).
    var paymentLatency: Duration = .zero
    /// How long the payment provider takes to answer a new charge once it has charged.
    var chargeLatency: Duration = .zero
    /// How long the product catalog takes to answer.
    var catalogLatency: Duration = .milliseconds(50)
    /// How long the checkout waits for the payment's confirmation before it rolls back.
    var paymentDeadline: Duration = .seconds(1_800)
    /// How long after shipping the reminder is sent.
    var reminderDelay: Duration = .seconds(86_400)
    var logLevel: Logger.Level = .info

    static let usage = """
        usage: OrderService [--data DIR] [--database postgres://USER@HOST/DATABASE] [--host 127.0.0.1]
                            [--port 8080] [--port-file FILE] [--lease SECONDS]
                            [--payment-latency SECONDS] [--charge-latency SECONDS]
                            [--catalog-latency SECONDS]
                            [--payment-deadline SECONDS] [--reminder-delay SECONDS]
                            [--log-level trace|debug|info|notice|warning|error|critical]
        """

    /// Parses `arguments` (without the program's name).
    ///
    /// - Throws: `OptionsError` naming the option and the value it could not use.
    init(_ arguments: [String]) throws(OptionsError) {
        var rest = arguments[...]
        while let option = rest.popFirst() {
            if option == "--help" || option == "-h" { throw .help }
            guard let value = rest.popFirst() else { throw .missingValue(option) }
            switch option {
            case "--data": data = value
            case "--database":
                guard value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") else {
                    throw .badValue(option, value, "a PostgreSQL URL, postgres://USER@HOST/DATABASE")
                }
                database = value
            case "--port-file": portFile = value
            case "--host": host = value
            case "--port": port = try Self.number(value, option, in: 0...65_535)
            case "--lease": lease = try Self.seconds(value, option, atLeast: 0.1)
            case "--payment-latency": paymentLatency = try Self.seconds(value, option)
            case "--charge-latency": chargeLatency = try Self.seconds(value, option)
            case "--catalog-latency": catalogLatency = try Self.seconds(value, option)
            case "--payment-deadline": paymentDeadline = try Self.seconds(value, option, atLeast: 0.1)
            case "--reminder-delay": reminderDelay = try Self.seconds(value, option)
            case "--log-level":
                guard let level = Logger.Level(rawValue: value) else { throw .badValue(option, value, "a log level") }
                logLevel = level
            default: throw .unknownOption(option)
            }
        }
    }

    private static func number(
        _ text: String, _ option: String, in range: ClosedRange<Int>
    ) throws(OptionsError)
        -> Int
    {
        guard let number = Int(text), range.contains(number) else {
            throw .badValue(option, text, "a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }

    private static func seconds(
        _ text: String, _ option: String, atLeast minimum: Double = 0
    ) throws(OptionsError)
        -> Duration
    {
        guard let seconds = Double(text), seconds >= minimum, seconds <= 31_536_000 else {
            throw .badValue(option, text, "seconds, from \(minimum) to a year")
        }
        return .milliseconds(Int64((seconds * 1_000).rounded()))
    }
}

/// A command line the service cannot run with.
enum OptionsError: Error, Hashable, CustomStringConvertible {
    case help
    case missingValue(String)
    case unknownOption(String)
    case badValue(String, String, String)

    var description: String {
        switch self {
        case .help: Options.usage
        case .missingValue(let option): "\(option) needs a value\n\(Options.usage)"
        case .unknownOption(let option): "unknown option \(option)\n\(Options.usage)"
        case .badValue(let option, let value, let expected): "\(option) \(value): expected \(expected)"
        }
    }
}
