import Chains

extension CacheTierConformance {
    enum Check: String, CaseIterable {
        case emptyStoreMisses = "an empty store misses"
        case storedValueIsReturned = "a stored value is returned"
        case storeReplaces = "storing again replaces the value"
        case removeForgets = "remove forgets the value"
        case removingAbsentKeyIsHarmless = "removing an absent key is harmless"
        case keysAreIndependent = "keys are independent"
        case concurrentAccessIsSafe = "concurrent stores and lookups keep every value"
    }

    func run(_ check: Check, on store: Store) async throws {
        let name = check.rawValue
        switch check {
        case .emptyStoreMisses:
            for key in keys { try await expect(store, key, nil, name) }
        case .storedValueIsReturned:
            for (offset, key) in keys.enumerated() {
                let value = values[offset % values.count]
                try await store.store(value, for: key)
                try await expect(store, key, value, name)
            }
        case .storeReplaces:
            try await store.store(values[0], for: keys[0])
            try await store.store(values[1], for: keys[0])
            try await expect(store, keys[0], values[1], name)
        case .removeForgets:
            try await store.store(values[0], for: keys[0])
            try await store.remove(keys[0])
            try await expect(store, keys[0], nil, name)
            try await store.store(values[1], for: keys[0])
            try await expect(store, keys[0], values[1], name + " (and stores again after)")
        case .removingAbsentKeyIsHarmless:
            try await store.store(values[0], for: keys[0])
            try await store.remove(keys[1])
            try await expect(store, keys[0], values[0], name)
        case .keysAreIndependent:
            try await store.store(values[0], for: keys[0])
            try await store.store(values[1], for: keys[1])
            try await expect(store, keys[2], nil, name)
            try await store.remove(keys[1])
            try await expect(store, keys[0], values[0], name)
        case .concurrentAccessIsSafe:
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (offset, key) in keys.enumerated() {
                    let value = values[offset % values.count]
                    group.addTask {
                        for _ in 0..<5 {
                            try await store.store(value, for: key)
                            _ = try await store.lookup(key)
                        }
                    }
                }
                try await group.waitForAll()
            }
            for (offset, key) in keys.enumerated() {
                try await expect(store, key, values[offset % values.count], name)
            }
        }
    }

    private func expect(_ store: Store, _ key: Store.Key, _ expected: Store.Value?, _ check: String) async throws {
        let found = try await store.lookup(key)
        guard found != expected else { return }
        throw CacheTierConformanceError.Failure(
            check: check,
            message: "for key \(key), expected \(expected.map { "\($0)" } ?? "nil (a miss)"), "
                + "got \(found.map { "\($0)" } ?? "nil (a miss)")")
    }
}
