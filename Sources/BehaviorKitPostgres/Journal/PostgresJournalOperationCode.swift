/// The kind of a write as the batch function reads it (`op` in each write of the batch):
/// written here once for the encoding of the writes and for the function's branches.
enum PostgresJournalOperationCode: String, Encodable, Sendable {
    case begin, append, settle, changes, renew, release, claim, enqueue, prune
    /// A write the function does not apply (it raises): the management writes never reach it.
    case unsupported

    /// The function's test of this write's kind.
    var test: String { "v_what = '\(rawValue)'" }
}
