/// A stored timer, by instance and id: what a process sets aside when it cannot fire it.
struct TimerReference: Hashable, Sendable {
    var key: MachineKey
    var id: String

    init(_ record: MachineTimerRecord) {
        key = record.key
        id = record.id
    }
}

/// A stored timer's identity read without the definition's `State` type: its visit and index
/// find the timer a migrated snapshot arms in its place.
struct StoredTimerIdentity: Decodable {
    var index: Int
    var visit: UInt64
}
