import Foundation
import Testing

/// Finds the public datasets in `../shared/datasets` next to the package root, so tests that
/// need them can run when the folder is there and skip with a clear message when it is not.
///
/// Use as `@Test(.enabled(if: DatasetLocator.isAvailable, DatasetLocator.skipMessage))`.
enum DatasetLocator {
    /// The package root, found from this file's place in `Tests/ABRLabTests/Support`.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/datasets` relative to the package root, whether or not it exists.
    static let root: URL = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared").appendingPathComponent("datasets").standardizedFileURL

    static var isAvailable: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static let skipMessage: Comment = "public datasets not found at ../shared/datasets (relative to the package root); skipped"

    /// A file or folder inside the datasets, e.g. `url("pensieve/cooked_test_traces")`.
    static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }
}
