public import Commands

/// The command a parcel's delivery emits: the machine fleet checks that each delivered parcel
/// has exactly one, enqueued in (or relayed from) the step that delivered it, and that it ran.
public struct NotifyDelivery: JournaledCommand {
    /// Its kind in the journal.
    public static let journalKind = "parcel.notify-delivery"

    /// A notification.
    public init() {}

    /// "notify delivery".
    public var name: String { "notify delivery" }

    /// Does nothing: the journal's record is what the fleet checks.
    public func execute() async throws {}

    /// Does nothing.
    public func undo() async throws {}
}
