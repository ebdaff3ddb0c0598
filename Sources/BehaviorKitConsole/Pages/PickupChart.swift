import Commands
import Foundation

/// A queue's pickup latency over the last hour, drawn under its activity bars: one bar a minute
/// for the mean time its records waited from falling due to being claimed, a tick at the
/// longest, each titled with both and the count; scaled to the hour's longest. A queue whose
/// records kept no pickup (begun by their callers, or claimed before the journal kept pickups)
/// draws nothing.
enum PickupChart {
    static let height = 32

    /// The chart of `byMinute` (the activity of one queue, by minute index from the hour's first),
    /// or nothing when no minute kept a pickup.
    static func render(_ queue: String, _ byMinute: [Int: QueueActivity], into html: inout HTML) {
        let kept = byMinute.values.filter { $0.pickups > 0 }
        guard !kept.isEmpty else { return }
        let longest = kept.map(\.longestPickupMilliseconds).max() ?? 0
        let pickups = kept.reduce(0) { $0 + $1.pickups }
        let total = kept.reduce(0.0) { $0 + Double($1.pickupMilliseconds) }
        let scale = Double(max(1, longest))
        let width = ActivityChart.minutes * ActivityChart.barWidth
        let summary =
            "pickup: mean \(QueueActivity.describe(milliseconds: total / Double(pickups))), longest \(QueueActivity.describe(milliseconds: Double(longest)))"
        html.raw("<div class=\"pickup-caption muted\">")
        html.text(summary + " (\(pickups) records)")
        html.raw("</div><svg class=\"pickup-chart\" role=\"img\" width=\"\(width)\" height=\"\(height)\" ")
        html.raw("viewBox=\"0 0 \(width) \(height)\" aria-label=\"")
        html.text("\(queue) \(summary) in the last hour")
        html.raw("\">")
        for index in byMinute.keys.sorted() {
            guard let minute = byMinute[index], minute.pickups > 0 else { continue }
            let mean = Double(minute.pickupMilliseconds) / Double(minute.pickups)
            let x = index * ActivityChart.barWidth
            let meanHeight = max(1, Int((mean / scale * Double(height)).rounded()))
            let tick =
                height - max(1, Int((Double(minute.longestPickupMilliseconds) / scale * Double(height)).rounded()))
            html.raw("<g class=\"pickup\"><title>")
            html.text(
                "\(ConsoleFormat.stamp(minute.minute)): pickup mean \(QueueActivity.describe(milliseconds: mean)), longest "
                    + "\(QueueActivity.describe(milliseconds: Double(minute.longestPickupMilliseconds))), \(minute.pickups) records"
            )
            html.raw("</title>")
            html.raw(
                "<rect class=\"bar-pickup\" x=\"\(x)\" y=\"\(height - meanHeight)\" "
                    + "width=\"\(ActivityChart.barWidth - 1)\" height=\"\(meanHeight)\"/>")
            html.raw(
                "<rect class=\"mark-pickup\" x=\"\(x)\" y=\"\(tick)\" width=\"\(ActivityChart.barWidth - 1)\" "
                    + "height=\"1\"/>")
            html.raw("</g>")
        }
        html.raw("</svg>")
    }
}
