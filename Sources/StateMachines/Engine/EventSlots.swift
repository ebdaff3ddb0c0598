/// Finds an event's index among the events the rules name without comparing or hashing: for an
/// event type of one byte with nothing to retain (an enum without payloads, up to 256 cases), the
/// event's byte indexes a table of 256 entries.
///
/// The table is built only when the named events have distinct bytes. An event with the byte of
/// a named event is that event (a value of such a type is its byte). An event whose byte is not
/// in the table (`-1`) is looked up the slow way, by `==`, so that a type whose `==` is coarser
/// than its bytes still matches as written.
@usableFromInline
struct EventSlots: Sendable {
    /// Whether the table exists: `slot(of:)` may be called only then.
    @usableFromInline let isDirect: Bool
    /// How many events the rules name exactly.
    @usableFromInline let count: Int
    @usableFromInline let table: FixedBuffer<Int32>

    init<Event: Hashable>(events: [Event], arena: BufferArena) {
        count = events.count
        var slots = [Int32](repeating: Int32(NoIndex.value), count: 256)
        var direct = MemoryLayout<Event>.size == 1 && _isPOD(Event.self) && !events.isEmpty && events.count < 256
        if direct {
            for (index, event) in events.enumerated() {
                let byte = Int(withUnsafeBytes(of: event) { $0[0] })
                if slots[byte] >= 0 {
                    direct = false
                    break
                }
                slots[byte] = Int32(index)
            }
        }
        isDirect = direct
        table = arena.buffer(direct ? slots : [])
    }

    /// The index of `event` among the named events, or `NoIndex.value`; only when `isDirect`.
    @inlinable
    @inline(__always)
    func slot<Event>(of event: Event) -> Int {
        Int(table[Int(withUnsafeBytes(of: event) { $0[0] })])
    }
}
