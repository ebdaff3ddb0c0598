import BehaviorKitSync

/// Where a scenario writes its trace: standard output in the CLI, a recorder in tests.
public struct Console: Sendable {
    private let writeLine: @Sendable (String) -> Void

    /// Creates a console that hands each line to `writeLine`.
    public init(_ writeLine: @escaping @Sendable (String) -> Void) {
        self.writeLine = writeLine
    }

    /// Writes one line.
    public func print(_ line: String) {
        writeLine(line)
    }

    /// The process's standard output, written so that a full disk or a closed pipe loses the
    /// line instead of stopping the process (see ``StandardStream``).
    public static let standardOutput = Console { line in StandardStream.output.writeLine(line) }

    /// A console that keeps every line, for golden-output tests.
    public static func recording() -> (Console, ConsoleRecording) {
        let recording = ConsoleRecording()
        return (Console { recording.append($0) }, recording)
    }
}

/// The lines a recording console has been given, in order.
public final class ConsoleRecording: Sendable {
    private let storage = LockedValue<[String]>([])

    init() {}

    func append(_ line: String) {
        storage.withLock { $0.append(line) }
    }

    /// Every line so far.
    public var lines: [String] { storage.withLock { $0 } }

    /// Every line so far, joined by newlines.
    public var text: String { lines.joined(separator: "\n") }
}
