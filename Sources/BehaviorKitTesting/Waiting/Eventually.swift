/// Yields until `condition` holds, or a generous number of yields (100,000) passed; returns
/// whether it held, so that a test whose expected state never comes fails instead of hanging.
///
/// ```swift
/// #expect(await eventually { worker.statistics.done == 3 })
/// ```
@discardableResult
public func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<100_000 {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}
