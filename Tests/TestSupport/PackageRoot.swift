import Foundation

/// The package root, found from this file's place in `Tests/TestSupport`.
public enum PackageRoot {
    public static let url: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A file or folder of the repository, e.g. `file("Strategies/bola.lua")`.
    public static func file(_ relativePath: String) -> URL {
        url.appendingPathComponent(relativePath)
    }
}
