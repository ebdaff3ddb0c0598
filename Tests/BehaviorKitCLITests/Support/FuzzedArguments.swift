import Foundation
import PropertyBased

/// Random and adversarial command lines for every subcommand, hidden ones included: known
/// options with numbers near their limits, NaN, infinities, negatives, overflow, empty strings,
/// unknown flags, and paths that do not exist or are folders, all inside `folder`.
struct FuzzedArguments: Sendable {
    let folder: String

    /// Each subcommand with its options and flags (a trailing `=` marks one that takes a value).
    static let subcommands: [(name: String, options: [String])] = [
        ("tour", []),
        ("garage", ["--fail-api", "--journal=", "--busy-timeout="]),
        ("cart", ["--interactive"]),
        ("movies", ["--count=", "--seed=", "--failure-rate=", "--cache-dir=", "--real-time"]),
        ("vehicle", ["--instant", "--events=", "--interactive"]),
        ("phone", ["--mask=", "--as-you-type"]),
        ("crossing", ["--script="]),
        ("diagram", ["--format="]),
        ("journal", []),
        (
            "fleet",
            [
                "--journal=", "--workers=", "--orders=", "--kills=", "--seed=", "--lease-ms=", "--directory=",
                "--worker", "--owner=",
            ]
        ),
        ("lifecycle", ["--child", "--store="]),
        ("machines", ["--machine=", "--state=", "--key=", "--limit=", "--format="]),
        (
            "machine-fleet",
            [
                "--store=", "--workers=", "--keys=", "--kills=", "--seed=", "--lease-ms=", "--directory=", "--worker",
                "--slot=", "--label=",
            ]
        ),
        ("crash-test", ["--kills=", "--seed=", "--directory=", "--child", "--round="]),
        ("disk-cache-worker", ["--path=", "--first=", "--count=", "--instances="]),
        ("help", []),
    ]

    static let numbers = [
        "0", "1", "-1", "-0", "2", "10", "64", "65", "1000", "10000", "10001", "86400", "86401", "600000",
        "1000000", "1000001", "2147483648", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "18446744073709551615", "18446744073709551616", "99999999999999999999999", "nan", "NaN", "-nan", "inf",
        "-inf", "infinity", "1e308", "1e309", "-1e309", "0.5", "1.5", "-0.5", "5e-324", "0x10", "1_000", " 1",
    ]

    static let words = [
        "", " ", "-", "--", "--unknown", "-x", "--count", "=", "vehicle", "crossing", "mermaid", "dot", "scxml",
        "svg", "accelerate,brake,park", "accelerate,,brake", "fly", "2:button,4:service,10:resume",
        "2:button,1:service",
        "86401:button", "-1:button", "nan:button", ":", "79634480209", "+7 (963) 448 02-09", "XXX-XX", "", "é",
        "postgres://", "postgres://nobody@127.0.0.1:1/none",
    ]

    /// Paths inside the test's folder: the folder itself, missing files and folders, a text file.
    var paths: [String] {
        [folder, folder + "/missing/file.sqlite", folder + "/new.sqlite", folder + "/text.txt", folder + "/", ""]
    }

    /// Lines for standard input: cart edits, phone numbers, vehicle events, and junk.
    static let lines = [
        "", "add apple 2", "add apple -1", "add apple 9223372036854775807", "reduce apple 3", "undo", "redo",
        "undo 9223372036854775807", "undo -1", "undo all", "accelerate", "brake", "park", "79634480209", "123",
        "nan", "\u{7F}", String(repeating: "9", count: 300),
    ]

    /// A command line: a subcommand (or none) and up to seven tokens, each an option, an
    /// option with a value, or a bare value.
    var generator: Generator<[String], AnySequence<Any>> {
        let values = Self.numbers + Self.words + paths
        return zip(Gen.int(in: 0...Self.subcommands.count), Gen.int(in: 0...1_000_000).array(of: 0...7)).map {
            command, choices in
            var arguments: [String] = []
            var options = ["--help", "-h", "--version", "--unknown"]
            if command < Self.subcommands.count {
                arguments.append(Self.subcommands[command].name)
                options += Self.subcommands[command].options
            }
            for choice in choices {
                let option = options[(choice / 4) % options.count]
                let value = values[(choice / 4 / options.count) % values.count]
                switch choice % 4 {
                case 0: arguments.append(option.hasSuffix("=") ? String(option.dropLast()) : option)
                case 1 where option.hasSuffix("="): arguments.append(option + value)
                case 1: arguments += [option, value]
                case 2: arguments.append(value)
                default: arguments += [option.hasSuffix("=") ? String(option.dropLast()) : option, value]
                }
            }
            return arguments
        }
        .eraseToAny()
    }

    /// Standard input: up to five lines.
    var input: Generator<String, AnySequence<Any>> {
        Gen.int(in: 0...(Self.lines.count - 1)).array(of: 0...5).map { indices in
            indices.map { Self.lines[$0] + "\n" }.joined()
        }
        .eraseToAny()
    }
}
