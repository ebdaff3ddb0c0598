import Foundation

/// Keeps each order in a JSON file of its own, `<folder>/<id>.json`, replaced atomically (a new
/// file renamed over the old one), so that a process killed while writing leaves the previous
/// version whole.
struct OrderFiles: Sendable {
    let folder: URL

    init(folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.folder = folder
    }

    func save(_ saved: SavedOrder) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(saved).write(to: file(saved.order.id), options: .atomic)
    }

    /// Every saved order.
    ///
    /// - Throws: `OrderFileError` naming the file that cannot be read: an order is never
    ///   dropped silently.
    func loadAll() throws -> [SavedOrder] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        return try names.sorted().map { name in
            let url = folder.appendingPathComponent(name)
            do {
                return try JSONDecoder().decode(SavedOrder.self, from: Data(contentsOf: url))
            } catch {
                throw OrderFileError(path: url.path, reason: "\(error)")
            }
        }
    }

    private func file(_ id: String) -> URL {
        folder.appendingPathComponent("\(id).json")
    }
}

/// A saved order that cannot be read back.
struct OrderFileError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "cannot read the saved order \(path): \(reason)" }
}
