// The bookkeeping of a runtime's listeners (observers, refusal observers, streams): each kept
// under an id of its own, and counted, so that an event tests one integer to know whether
// anyone listens.

extension StateMachineRuntime {
    /// Adds the listener `make` builds from a new id to the list at `list`, counts it in the
    /// count at `count`, and answers the id. Called with the lock held.
    func addListener<Entry>(
        _ make: (UInt64) -> Entry,
        to list: WritableKeyPath<RuntimeCore<State, Event, Context, C.Instant>, [Entry]>,
        counted count: WritableKeyPath<RuntimeCore<State, Event, Context, C.Instant>, Int>
    ) -> UInt64 {
        core.pointee.nextID += 1
        core.pointee[keyPath: list].append(make(core.pointee.nextID))
        core.pointee[keyPath: count] += 1
        return core.pointee.nextID
    }

    /// Removes the listener `id` (which `idOf` reads from an entry) from the list at `list`,
    /// under the lock, and takes it off the count at `count` if it was still there.
    func removeListener<Entry>(
        _ id: UInt64,
        from list: WritableKeyPath<RuntimeCore<State, Event, Context, C.Instant>, [Entry]>,
        counted count: WritableKeyPath<RuntimeCore<State, Event, Context, C.Instant>, Int>,
        id idOf: (Entry) -> UInt64
    ) {
        locked {
            let before = core.pointee[keyPath: list].count
            core.pointee[keyPath: list].removeAll { idOf($0) == id }
            core.pointee[keyPath: count] -= before - core.pointee[keyPath: list].count
        }
    }
}
