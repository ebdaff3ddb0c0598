/// What a journal records under a name: the arguments of a ``JournaledCommand`` or of a
/// ``JournaledStep``, kept as JSON, and the name ``CommandRegistry`` brings them back by.
///
/// Every call that takes either (``CommandQueue/enqueue(_:key:after:priority:partition:)``,
/// ``QueuedJob``, ``CommandRegistry/entry(_:key:parentKey:)``) takes a `Journaled` value.
public protocol Journaled: Encodable, Sendable {
    /// The type's name in the journal; keep it stable across releases.
    static var journalKind: String { get }
}
