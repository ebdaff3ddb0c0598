#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The calendar time a journal stamps its records and leases with: a lease is "expired" when
/// this clock has passed it, so every process that shares a journal must read the same time.
///
/// ```swift
/// let journal = InMemoryCommandJournal(clock: SystemWallClock())
/// let clock = ManualClock()  // from BehaviorKitTesting: a WallClock too, for lease tests
/// ```
///
/// Processes on one machine share its clock; machines that share a PostgreSQL journal use the
/// server's clock instead (see `PostgresCommandJournal`).
public protocol WallClock: Sendable {
    /// The time now.
    var currentDate: Date { get }
}

/// The system's calendar clock.
public struct SystemWallClock: WallClock {
    /// Creates the system clock.
    public init() {}

    /// `Date()`.
    public var currentDate: Date { Date() }
}

extension Date {
    /// Whole milliseconds since 1970, as journals store times.
    package var journalMilliseconds: Int64 {
        let milliseconds = (timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite else { return 0 }
        return Int64(clamping: milliseconds, default: 0)
    }

    /// The date `milliseconds` after 1970.
    package init(journalMilliseconds milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}

extension Date {
    /// The date `duration` later, to the millisecond; saturates instead of overflowing.
    package func adding(_ duration: Duration) -> Date {
        let (sum, overflow) = journalMilliseconds.addingReportingOverflow(duration.journalMilliseconds)
        return Date(journalMilliseconds: overflow ? (duration < .zero ? .min : .max) : sum)
    }

    /// The time from this date to `later`, to the millisecond; saturates instead of overflowing.
    package func duration(to later: Date) -> Duration {
        let (difference, overflow) = later.journalMilliseconds.subtractingReportingOverflow(journalMilliseconds)
        return .milliseconds(overflow ? (later > self ? Int64.max : Int64.min) : difference)
    }
}

extension Int64 {
    /// `value` rounded toward zero, or the nearest bound when it does not fit.
    package init(clamping value: Double, default fallback: Int64) {
        if value.isNaN {
            self = fallback
        } else if value >= 9.2e18 {
            self = .max
        } else if value <= -9.2e18 {
            self = .min
        } else {
            self = Int64(value)
        }
    }
}

extension Duration {
    /// Whole milliseconds, saturating at the bounds of `Int64` (a delay of a thousand years
    /// stays a very long delay, never an overflow).
    package var journalMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflowAgain) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        if overflowAgain { return scaled < 0 ? .min : .max }
        return sum
    }
}
