public import Commands

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension ManualClock: WallClock {
    /// The calendar date the clock's origin stands for: 1 January 2026, 00:00 UTC.
    public static let origin = Date(timeIntervalSince1970: 1_767_225_600)

    /// The origin plus the time the clock has moved: a journal on this clock sees leases
    /// expire only when a test advances it.
    ///
    /// ```swift
    /// let clock = ManualClock()
    /// let journal = InMemoryCommandJournal(clock: clock)
    /// await clock.advance(by: .seconds(31))  // every 30-second lease has expired
    /// ```
    public var currentDate: Date {
        let (seconds, attoseconds) = now.offset.components
        return Self.origin.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }
}
