/// The kind of a write as the batch function reads it (`p_ops`, a `smallint` each): written
/// here once for the encoding of the writes and for the function's branches.
enum PostgresJournalOperationCode: Int16, Sendable {
    /// A write the function does not apply (it raises): the management writes never reach it.
    case unsupported = 0
    case begin, append, settle, changes, renew, release, claim, enqueue, prune

    /// The function's test of this write's kind.
    var test: String { "v_what = \(rawValue) /* \(self) */" }
}
