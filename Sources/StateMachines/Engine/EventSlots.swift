/// Finds an event's index among the events the rules name without comparing or hashing: for an
/// event type of one byte with nothing to retain (an enum without payloads, up to 256 cases), the
/// event's byte indexes a table of 256 entries.
///
/// The table is built only when the named events have distinct bytes. An event with the byte of
/// a named event is that event (a value of such a type is its byte). An event whose byte is not
/// in the table (`nil`) is looked up the slow way, by `==`, so that a type whose `==` is coarser
/// than its bytes still matches as written.
@usableFromInline
struct EventSlots: Sendable {
    /// Whether the table exists: `slot(of:)` may be called only then.
    @usableFromInline let isDirect: Bool
    /// How many events the rules name exactly.
    @usableFromInline let count: Int
    /// The slot of each byte (fewer than 256 events are named, so a slot fits in a byte).
    @usableFromInline let table: FixedBuffer<UInt8?>

    init<Event: Hashable>(events: [Event], arena: BufferArena) {
        count = events.count
        var slots = [UInt8?](repeating: nil, count: 256)
        var direct = MemoryLayout<Event>.size == 1 && _isPOD(Event.self) && !events.isEmpty && events.count < 256
        if direct {
            for (index, event) in events.enumerated() {
                let byte = Int(withUnsafeBytes(of: event) { $0[0] })
                if slots[byte] != nil {
                    direct = false
                    break
                }
                slots[byte] = UInt8(truncatingIfNeeded: index)
            }
        }
        isDirect = direct
        table = arena.buffer(direct ? slots : [])
    }

    /// The index of `event` among the named events, `nil` for an event no rule names by its
    /// byte; only when `isDirect`.
    @inlinable
    @inline(__always)
    func slot<Event>(of event: Event) -> Int? {
        guard let slot = table[Int(withUnsafeBytes(of: event) { $0[0] })] else { return nil }
        return Int(slot)
    }
}
