import BehaviorKitSync
import Chains

/// The per-tier table printed at the end of a movies run, and a line naming the failed
/// write-backs when there were any.
enum MoviesTable {
    static func lines(_ statistics: LookupStatistics) -> [String] {
        let header = ["tier", "hits", "misses", "errors", "skipped", "writes", "write errors", "mean latency"]
        let rows = statistics.tiers.map { tier in
            [
                tier.name, "\(tier.hits)", "\(tier.misses)", "\(tier.errors)", "\(tier.skipped)", "\(tier.writes)",
                "\(tier.writeErrors)", tier.meanLatency?.shortDescription ?? "-",
            ]
        }
        let table = [header] + rows
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        let lines = table.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        let failedWrites = statistics.tiers.filter { $0.writeErrors > 0 }.map { tier in
            "\(tier.name) \(tier.writeErrors)" + (tier.lastWriteError.map { " (the last: \($0))" } ?? "")
        }
        return failedWrites.isEmpty ? lines : lines + ["write errors: " + failedWrites.joined(separator: "; ")]
    }
}
