import Commands
import Foundation

/// A queue's last hour as a picture: one bar a minute, the records settled done (green) under
/// those failed (red), a mark above the minutes with retried attempts (amber), each bar titled
/// with its counts; under it, how long its records waited to be picked up (``PickupChart``).
/// Inline SVG coloured by the console's stylesheet: no script, nothing loaded.
enum ActivityChart {
    static let minutes = 60
    static let barWidth = 8
    static let height = 64

    /// The charts of every queue with activity in the hour before `now`, or a line saying none had any.
    static func render(_ activity: [QueueActivity], now: Date, into html: inout HTML) {
        let byQueue = Dictionary(grouping: activity, by: \.queue)
        html.raw("<div class=\"activity\" id=\"activity\">")
        if byQueue.isEmpty { html.element("p", "No record settled in the last hour.", attributes: "class=\"muted\"") }
        for queue in byQueue.keys.sorted() {
            chart(queue, byQueue[queue] ?? [], now: now, into: &html)
        }
        html.raw("</div>")
    }

    private static func chart(_ queue: String, _ activity: [QueueActivity], now: Date, into html: inout HTML) {
        let last = QueueActivity.minute(of: now)
        let first = last.addingTimeInterval(-Double((minutes - 1) * 60))
        var byMinute: [Int: QueueActivity] = [:]
        for minute in activity {
            let index = Int(minute.minute.timeIntervalSince(first) / 60)
            if (0..<minutes).contains(index) { byMinute[index] = minute }
        }
        let peak = max(1, byMinute.values.map { $0.done + $0.failed }.max() ?? 1)
        let done = activity.reduce(0) { $0 + $1.done }
        let failed = activity.reduce(0) { $0 + $1.failed }
        let retried = activity.reduce(0) { $0 + $1.retried }
        let width = minutes * barWidth
        html.raw("<figure class=\"activity-chart\" data-queue=\"")
        html.text(queue)
        html.raw("\"><figcaption>")
        html.element("strong", queue)
        html.text(" — last hour: \(done) done, \(failed) failed, \(retried) retried; at most \(peak) a minute")
        html.raw("</figcaption>")
        let label = "\(queue): \(done) done, \(failed) failed, \(retried) retried in the last hour"
        html.raw("<svg role=\"img\" width=\"\(width)\" height=\"\(height + 8)\" ")
        html.raw("viewBox=\"0 0 \(width) \(height + 8)\" aria-label=\"")
        html.text(label)
        html.raw("\"><line class=\"axis\" x1=\"0\" y1=\"\(height + 8)\" x2=\"\(width)\" y2=\"\(height + 8)\"/>")
        for index in (0..<minutes).sorted() {
            guard let minute = byMinute[index] else { continue }
            let x = index * barWidth
            let doneHeight = minute.done * height / peak
            let failedHeight = minute.failed * height / peak
            html.raw("<g class=\"minute\"><title>")
            html.text(
                "\(ConsoleFormat.stamp(minute.minute)): \(minute.done) done, \(minute.failed) failed, "
                    + "\(minute.retried) retried")
            html.raw("</title>")
            if doneHeight > 0 {
                html.raw(
                    "<rect class=\"bar-done\" x=\"\(x)\" y=\"\(height + 8 - doneHeight)\" width=\"\(barWidth - 1)\" "
                        + "height=\"\(doneHeight)\"/>")
            }
            if failedHeight > 0 {
                html.raw(
                    "<rect class=\"bar-failed\" x=\"\(x)\" y=\"\(height + 8 - doneHeight - failedHeight)\" "
                        + "width=\"\(barWidth - 1)\" height=\"\(failedHeight)\"/>")
            }
            if minute.retried > 0 {
                html.raw("<rect class=\"mark-retried\" x=\"\(x)\" y=\"0\" width=\"\(barWidth - 1)\" height=\"4\"/>")
            }
            html.raw("</g>")
        }
        html.raw("</svg>")
        PickupChart.render(queue, byMinute, into: &html)
        html.raw("<div class=\"activity-axis muted\"><span>60 min ago</span><span>now</span></div></figure>")
    }
}
