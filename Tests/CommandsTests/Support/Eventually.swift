/// Yields until `condition` holds (or a generous number of yields passed); returns whether it
/// held, so that a regression fails instead of hanging.
@discardableResult
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<100_000 {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}
