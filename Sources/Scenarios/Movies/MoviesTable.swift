import Chains

/// The per-tier table printed at the end of a movies run.
enum MoviesTable {
    static func lines(_ statistics: LookupStatistics) -> [String] {
        let header = ["tier", "hits", "misses", "errors", "skipped", "writes", "mean latency"]
        let rows = statistics.tiers.map { tier in
            [
                tier.name, "\(tier.hits)", "\(tier.misses)", "\(tier.errors)", "\(tier.skipped)", "\(tier.writes)",
                tier.meanLatency?.display ?? "-",
            ]
        }
        let table = [header] + rows
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        return table.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
    }
}
