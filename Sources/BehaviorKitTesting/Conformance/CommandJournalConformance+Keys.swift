import Commands

extension CommandJournalConformance {
    static func keysAreKeptExactlyOrRefused(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws
    {
        let check = "a key with a NUL character, or not in NFC, is refused before anything is written"
        _ = try await journal.enqueue(entry("k"), queue: "q", after: .zero)
        _ = try await journal.enqueue(entry("café"), queue: "q", after: .zero)
        for key in ["k\u{0}1", "cafe\u{301}"] {
            do {
                _ = try await journal.enqueue(entry(key), queue: "q", after: .zero)
                throw failure(check, "enqueue took the key \(key.debugDescription)")
            } catch let error as InvalidKeyError {
                try expect(error.key == key && error.role == "idempotency key", check, "enqueue: \(error)")
            }
            do {
                _ = try await journal.begin(entry(key), lease: lease)
                throw failure(check, "begin took the key \(key.debugDescription)")
            } catch is InvalidKeyError {}
            do {
                try await journal.settle(key, as: .done(output: nil), lease: lease)
                throw failure(check, "settle took the key \(key.debugDescription)")
            } catch is InvalidKeyError {}
            let read = try await journal.record(forKey: key)
            try expect(read == nil, check, "record(forKey: \(key.debugDescription)) found \(String(describing: read))")
        }
        let keys = try await journal.allRecords().map(\.entry.idempotencyKey)
        try expect(keys == ["k", "café"], check, "the journal holds \(keys.map(\.debugDescription))")
        let cafe = try await journal.record(forKey: "café")
        try expect(cafe?.entry.idempotencyKey.utf8.count == 5, check, "café read back as \(String(describing: cafe))")
    }
}
