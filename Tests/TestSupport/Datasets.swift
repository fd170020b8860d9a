import Foundation
import Testing

/// The public datasets in `../shared/datasets` next to the package root: tests that need them
/// run when the folder is there and skip with a clear message when it is not.
///
/// Use as `@Suite(.tags(.datasets), .needsDatasets)` (or `.needsDatasets("sabre")` for one
/// dataset) and find files with `Datasets.url("pensieve/cooked_test_traces")`.
public enum Datasets {
    /// `../shared/datasets` relative to the package root, whether or not it exists.
    public static let root: URL = PackageRoot.url.deletingLastPathComponent()
        .appendingPathComponent("shared").appendingPathComponent("datasets").standardizedFileURL

    /// Whether the datasets folder (or the dataset `relativePath` inside it) is there.
    public static func isAvailable(_ relativePath: String = "") -> Bool {
        var isDirectory: ObjCBool = false
        let path = relativePath.isEmpty ? root.path : url(relativePath).path
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The skip message naming where the dataset was looked for.
    public static func skipMessage(_ relativePath: String = "") -> Comment {
        let name = relativePath.isEmpty ? "datasets" : "datasets/\(relativePath)"
        return "public \(name) not found at ../shared/\(name) (relative to the package root); skipped"
    }

    /// A file or folder inside the datasets, e.g. `url("pensieve/cooked_test_traces")`.
    public static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs only where `../shared/datasets` (or `relativePath` inside it) exists; skips naming it.
    public static var needsDatasets: Self { needsDatasets("") }

    /// Runs only where `../shared/datasets/relativePath` exists; skips naming it.
    public static func needsDatasets(_ relativePath: String) -> Self {
        .enabled(if: Datasets.isAvailable(relativePath), Datasets.skipMessage(relativePath))
    }
}
