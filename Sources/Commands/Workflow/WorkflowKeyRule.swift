extension WorkflowRecord {
    /// The one rule for a run's key and a message's topic: no `"/"` in it. The journal keys of
    /// a run's steps are `"<key>/<position>"` and its mailboxes `"…/<key>/<topic>"`, so a start
    /// key `"order-42/0"` would be the first step of the run `"order-42"`.
    ///
    /// - Throws: ``WorkflowError/invalidKey(key:reason:)`` naming `key`.
    static func checked(_ key: String, as what: String) throws -> String {
        guard !key.contains("/") else {
            throw WorkflowError.invalidKey(
                key: key,
                reason: "a \(what) must not contain '/', which separates a run's key from its steps and messages")
        }
        return key
    }
}
