extension Int {
    /// The sum, or `Int.max` (`Int.min`) where it would overflow: costs are the caller's
    /// numbers, and must not trap. (Costs are never negative, so a total less a cost cannot
    /// overflow; totals are kept at 0 or more.)
    package func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }
}
