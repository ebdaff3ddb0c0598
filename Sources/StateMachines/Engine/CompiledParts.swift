/// The compiled records as arrays, for the plans derived from them while the definition compiles.
struct CompiledParts<Event, Context> {
    let stateRecords: [CompiledState]
    let rules: [CompiledRule<Event, Context>]
    let selection: [Int]
    let actions: [Unmanaged<Box<ActionBody<Context, Event>>>]

    /// Actions `start ..< end` of the pool.
    func actions(_ start: Int, _ end: Int) -> ArraySlice<Unmanaged<Box<ActionBody<Context, Event>>>> {
        actions[start..<end]
    }
}
