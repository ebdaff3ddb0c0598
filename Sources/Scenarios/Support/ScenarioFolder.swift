import Foundation

/// A folder of a scenario's own under the temporary directory, for its files: created at once,
/// deleted by ``remove()``.
///
/// ```swift
/// let folder = try ScenarioFolder("lifecycle")
/// defer { folder.remove() }
/// let path = folder.path + "/parcels.sqlite"
/// ```
struct ScenarioFolder {
    /// The folder's path: `behaviorkit-NAME-UUID` in the temporary directory.
    let path: String

    /// Creates the folder of the scenario `name`.
    init(_ name: String) throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "behaviorkit-\(name)-\(UUID().uuidString)"
            ).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Deletes the folder and everything in it; a folder already gone is no error.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
