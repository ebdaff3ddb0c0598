/// What the batch function answered for a write (`o_outcome`): one of these names, written here
/// once for the function's source and for the decoding of its rows. An answer row of any other
/// outcome is a malformed answer.
enum PostgresJournalOutcome: String, Sendable {
    /// `begin`: the key was new, written under the lease.
    case started
    /// `begin`: a pending root whose lease had expired, taken over.
    case resumed
    /// `begin`, `append`, `enqueue`: the key was there; the record as it is.
    case found
    /// `append`, `enqueue`: written.
    case inserted
    /// `settle`, `changes`: settled.
    case settled
    /// `settle`: already settled so.
    case same
    /// `settle`, `changes`: no such key (`o_aux2` names it for `changes`).
    case unknown
    /// `append`, `settle`, `changes`: the writer does not hold the root (`o_aux` its owner,
    /// `o_aux2` its key).
    case lost
    /// `changes`: a child there with another entry (`o_aux2` its key).
    case conflict
    /// `renew`: one row for each attempt renewed (`o_aux` its key).
    case renewed
    /// `release`: done, or nothing to release.
    case released
    /// `claim`: one row for each record taken (`o_aux` the owner it was taken from).
    case claimed
    /// `claim`'s last row: when the next record falls due (`o_next`, or NULL).
    case next
    /// `prune`: how many records went (`o_next`).
    case pruned

    /// The outcome as an SQL text literal.
    var literal: String { "'\(rawValue)'" }
}
