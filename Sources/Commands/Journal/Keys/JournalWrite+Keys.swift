extension JournalWrite {
    /// Refuses a write naming a key no store can keep exactly (``StoredKey``), before any store
    /// sees it: the same on every journal.
    package func checkKeys() throws(InvalidKeyError) {
        switch self {
        case .begin(let entry, _), .append(let entry, _): try entry.checkKeys()
        case .beginOnQueue(let entry, let queue, _):
            try entry.checkKeys()
            try StoredKey.check(queue, "queue name")
        case .enqueue(let entry, let queue, _, _, let partition, _):
            try entry.checkKeys()
            try StoredKey.check(queue, "queue name")
            if let partition { try StoredKey.check(partition, "partition") }
        case .settle(let key, _, _), .release(let key, _, _), .releaseFailed(let key, _, _, _), .cancel(let key, _),
            .retry(let key), .wake(let key):
            try StoredKey.check(key, "idempotency key")
        case .claim(_, let queue?, _, _, _, _), .pause(let queue, _): try StoredKey.check(queue, "queue name")
        case .changes, .renew, .claim, .prune, .logAttempt: break
        }
    }
}

extension CommandJournalEntry {
    /// Refuses an entry whose key or parent key no store can keep exactly.
    package func checkKeys() throws(InvalidKeyError) {
        try StoredKey.check(idempotencyKey, "idempotency key")
        if let parentKey { try StoredKey.check(parentKey, "parent key") }
    }
}
