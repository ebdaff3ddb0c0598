import Testing

/// `behaviorkit --help` as a user reads it: the tour, the scenarios in their numbered order, then
/// the tools; the commands that only other commands start stay hidden.
struct HelpTests {
    /// The subcommands `--help` lists, in order, and the scenario each names.
    static let golden: [(command: String, scenario: Int?)] = [
        ("tour", nil),
        ("garage", 1), ("cart", 2), ("movies", 3), ("vehicle", 4), ("phone", 5), ("crossing", 6), ("lifecycle", nil),
        ("order-workflow", nil),
        ("diagram", nil), ("journal", nil), ("fleet", nil), ("machine-fleet", nil), ("workflow-fleet", nil),
        ("machines", nil),
        ("console", nil),
    ]

    /// The SUBCOMMANDS section of `--help`: each entry's name and its abstract, unwrapped.
    static func subcommands() throws -> [(name: String, abstract: String)] {
        let result = try CLIRunner.run(["--help"])
        #expect(result.exitCode == 0)
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "SUBCOMMANDS:") else { return [] }
        var entries: [(name: String, abstract: String)] = []
        for line in lines[(start + 1)...] {
            if line.hasPrefix("  ") && !line.hasPrefix("   ") {
                let text = line.dropFirst(2)
                let name = text.prefix { $0 != " " }
                entries.append((String(name), text.dropFirst(name.count).trimmingSpaces()))
            } else if line.hasPrefix("   "), !entries.isEmpty {
                entries[entries.count - 1].abstract += " " + line.trimmingSpaces()
            } else if !entries.isEmpty && line.isEmpty {
                break
            }
        }
        return entries
    }

    @Test func theSubcommandsComeInTheirOrder() throws {
        #expect(try Self.subcommands().map(\.name) == Self.golden.map(\.command))
    }

    @Test func eachScenarioSaysItsNumber() throws {
        for (entry, golden) in zip(try Self.subcommands(), Self.golden) {
            if let scenario = golden.scenario {
                #expect(entry.abstract.contains("(scenario \(scenario))"), "\(entry.name): \(entry.abstract)")
            } else {
                #expect(!entry.abstract.contains("(scenario"), "\(entry.name): \(entry.abstract)")
            }
        }
    }

    @Test func theHelpSaysWhereTheScenariosAreDescribed() throws {
        let result = try CLIRunner.run(["--help"])
        #expect(result.standardOutput.contains("SCENARIOS.md"))
    }

    @Test(arguments: ["crash-test", "disk-cache-worker"])
    func theChildrenOfOtherCommandsStayHidden(_ hidden: String) throws {
        #expect(try !Self.subcommands().map(\.name).contains(hidden))
        #expect(try CLIRunner.run([hidden, "--help"]).exitCode == 0, "hidden, yet still there")
    }
}

extension StringProtocol {
    /// The text without its leading and trailing spaces.
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
