import Foundation
import Testing

/// SCENARIOS.md, which the README, `--help` and the code refer to, is in the repository, says what
/// the tool prints, and every reference to it resolves.
struct ScenariosDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ file: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
    }

    /// The fenced blocks of scenario `number`'s section, each as its lines.
    static func blocks(ofScenario number: Int) throws -> [[String]] {
        let document = try text("SCENARIOS.md")
        let sections = document.components(separatedBy: "\n## ")
        guard let section = sections.first(where: { $0.hasPrefix("\(number). ") }) else { return [] }
        var blocks: [[String]] = []
        var current: [String]?
        for line in section.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if let block = current {
                    blocks.append(block)
                    current = nil
                } else {
                    current = []
                }
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static func output(_ arguments: [String]) throws -> [String] {
        let result = try CLIRunner.run(arguments)
        return result.standardOutput.split(separator: "\n").map(String.init)
    }

    @Test func theGarageTracesAreWhatTheToolPrints() throws {
        let blocks = try Self.blocks(ofScenario: 1)
        try #require(blocks.count == 2)
        #expect(try Self.output(["garage"]) == blocks[0] + ["Finished: 5, failed: 0"])
        let failed = try Self.output(["garage", "--fail-api"])
        #expect(failed.count == blocks[1].count + 1)
        for (printed, documented) in zip(failed, blocks[1]) {
            if documented == "Transaction failed: <the API error>" {
                #expect(printed.hasPrefix("Transaction failed: "))
            } else {
                #expect(printed == documented)
            }
        }
        #expect(failed.last == "Finished: 3, failed: 2 (add to API, transaction)")
    }

    @Test func theVehicleTraceIsWhatTheToolPrints() throws {
        let blocks = try Self.blocks(ofScenario: 4)
        let trace = try #require(blocks.first).map {
            $0.replacingOccurrences(of: "(5 seconds later)", with: "").trimmingSpaces()
        }
        #expect(try Self.output(["vehicle", "--instant"]) == trace)
    }

    @Test func thePhoneNumberIsFormattedAsDocumented() throws {
        let blocks = try Self.blocks(ofScenario: 5)
        #expect(blocks.first == [#""79634480209"  ->  "+7 (963) 448 02-09""#])
        #expect(try Self.output(["phone", "79634480209"]) == ["+7 (963) 448 02-09"])
    }

    @Test func theCrossingTraceIsWhatTheToolPrints() throws {
        let blocks = try Self.blocks(ofScenario: 6)
        try #require(blocks.count == 2)
        #expect(try Self.output(["crossing"]) == blocks[1])
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func everyScenarioHasItsSection(_ number: Int) throws {
        #expect(try Self.text("SCENARIOS.md").contains("\n## \(number). "))
    }

    /// "scenario N" in the README, the manifest, the DocC catalogs and `--help` names a section of
    /// SCENARIOS.md, and every `behaviorkit <command>` they show is a command of the tool.
    @Test func everyReferenceResolves() throws {
        let subcommands = Set(try HelpTests.subcommands().map(\.name) + ["help"])
        let help = try CLIRunner.run(["--help"]).standardOutput
        let catalogs = try FileManager.default.subpathsOfDirectory(
            atPath: Self.root.appendingPathComponent("Sources").path
        )
        .filter { $0.contains(".docc/") && $0.hasSuffix(".md") }.map { "Sources/" + $0 }
        let texts =
            try ["README.md", "SCENARIOS.md", "Package.swift"].map(Self.text) + catalogs.map(Self.text) + [help]
        let document = try Self.text("SCENARIOS.md")
        let scenarioCount = (1...9).filter { document.contains("\n## \($0). ") }.count
        for text in texts {
            for match in text.matches(of: /[Ss]cenario (\d+)/) {
                let number = Int(match.output.1) ?? 0
                #expect((1...scenarioCount).contains(number), "scenario \(number) is not in SCENARIOS.md")
            }
            for match in text.matches(of: /behaviorkit ([a-z][a-z-]*)/) {
                #expect(subcommands.contains(String(match.output.1)), "no command 'behaviorkit \(match.output.1)'")
            }
        }
        for file in ["SCENARIOS.md", "LICENSE"] {
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(file).path), "\(file)")
        }
    }
}
