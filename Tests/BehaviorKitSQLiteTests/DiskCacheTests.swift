import BehaviorKitSQLite
import BehaviorKitSync
import BehaviorKitTesting
import Chains
import Foundation
import Testing

/// A folder of its own for each test, removed at the end.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("DiskCacheTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

struct Movie: Codable, Hashable, Sendable {
    let id: Int
    let title: String
}

struct DiskCacheTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func storesAndReadsBack() async throws {
        let cache = try DiskCache<Int, Movie>(path: folder.path("movies.sqlite"))
        #expect(try await cache.lookup(1) == nil)
        try await cache.store(Movie(id: 1, title: "Alien"), for: 1)
        #expect(try await cache.lookup(1) == Movie(id: 1, title: "Alien"))
        #expect(try await cache.count == 1)
        #expect(try await cache.totalSize > 0)
    }

    @Test func survivesAReopen() async throws {
        let path = folder.path("movies.sqlite")
        do {
            let cache = try DiskCache<Int, Movie>(path: path)
            for id in 0..<10 { try await cache.store(Movie(id: id, title: "Movie \(id)"), for: id) }
            _ = try await cache.lookup(3)  // 3 becomes the most recently used
        }
        let reopened = try DiskCache<Int, Movie>(path: path)
        #expect(try await reopened.count == 10)
        #expect(try await reopened.lookup(7) == Movie(id: 7, title: "Movie 7"))
        #expect(try await reopened.keys.prefix(2) == [7, 3])
        #expect(!reopened.wasRebuilt)
    }

    @Test func evictsTheLeastRecentlyUsedToStayUnderTheSizeLimit() async throws {
        let cache = try DiskCache<String, String>(path: folder.path("sized.sqlite"), sizeLimit: 40)
        let value = String(repeating: "x", count: 8)  // 10 bytes of JSON
        for key in ["a", "b", "c", "d"] { try await cache.store(value, for: key) }
        #expect(try await cache.totalSize == 40)
        _ = try await cache.lookup("a")
        try await cache.store(value, for: "e")  // 50 > 40: b, the least recently used, goes
        #expect(try await cache.keys == ["e", "a", "d", "c"])
        try await cache.store(String(repeating: "y", count: 18), for: "f")  // 20 bytes: c and d go
        #expect(try await cache.keys == ["f", "e", "a"])
        #expect(try await cache.totalSize == 40)
    }

    @Test func countLimit() async throws {
        let cache = try DiskCache<Int, Int>(path: folder.path("counted.sqlite"), countLimit: 2)
        for key in 1...3 { try await cache.store(key, for: key) }
        #expect(try await cache.keys == [3, 2])
    }

    @Test func aCorruptFileIsAnErrorNamingThePath() throws {
        let path = folder.path("corrupt.sqlite")
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: path))
        do {
            _ = try DiskCache<Int, Movie>(path: path)
            Issue.record("opened a corrupt file")
        } catch {
            #expect(error.code == .unreadable)
            #expect(error.path == path)
            #expect(error.description.hasPrefix("disk cache \(path): not a readable SQLite database"))
            #expect(error.description.contains("ifUnreadable: .rebuild"))
        }
        // The file was left alone.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(repeating: 0x42, count: 4096))
    }

    @Test func aCorruptFileIsRebuiltWhenAllowed() async throws {
        let path = folder.path("corrupt.sqlite")
        try Data("this is not a database, it is a text file that is long enough".utf8)
            .write(to: URL(fileURLWithPath: path))
        let cache = try DiskCache<Int, Movie>(path: path, ifUnreadable: .rebuild)
        #expect(cache.wasRebuilt)
        #expect(try await cache.count == 0)
        try await cache.store(Movie(id: 1, title: "Alien"), for: 1)
        #expect(try await DiskCache<Int, Movie>(path: path).lookup(1) == Movie(id: 1, title: "Alien"))
    }

    @Test func aMissingFolderIsAnErrorNamingThePath() {
        let path = folder.path("missing/folder/cache.sqlite")
        #expect {
            _ = try DiskCache<Int, Movie>(path: path, ifUnreadable: .rebuild)
        } throws: { error in
            guard let error = error as? DiskCacheError else { return false }
            return error.code == .cannotOpen && error.description.hasPrefix("disk cache \(path): cannot open")
        }
    }

    @Test func aValueOfAnotherShapeIsAMiss() async throws {
        let path = folder.path("shapes.sqlite")
        try await DiskCache<Int, String>(path: path).store("a string", for: 1)
        let movies = try DiskCache<Int, Movie>(path: path)
        #expect(try await movies.lookup(1) == nil)
        #expect(try await movies.count == 0)
    }

    @Test func passesTheCacheTierConformanceSuite() async throws {
        let folder = self.folder
        let counter = Counter()
        try await CacheTierConformance(
            keys: Array(0..<20), values: [Movie(id: 1, title: "A"), Movie(id: 2, title: "B")]
        ) {
            try DiskCache<Int, Movie>(path: folder.path("conformance-\(counter.next()).sqlite"))
        }.run()
    }

    @Test func worksAsATierOfALookup() async throws {
        let disk = try DiskCache<Int, Movie>(path: folder.path("tier.sqlite"))
        let source = LookupSource<Int, Movie>(name: "source") { Movie(id: $0, title: "Movie \($0)") }
        let lookup = TieredLookup<Int, Movie>([MemoryCache(), disk, source])
        #expect(try await lookup.answer(for: 5).tier == "source")
        #expect(try await disk.lookup(5) == Movie(id: 5, title: "Movie 5"))
        let second = TieredLookup<Int, Movie>([MemoryCache(), disk, source])
        #expect(try await second.answer(for: 5).tier == "disk")
    }
}

final class Counter: Sendable {
    private let value = LockedValue(0)

    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}
