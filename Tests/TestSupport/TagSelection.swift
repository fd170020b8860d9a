import Foundation
import Testing

/// Runs or skips a test by its tags and the environment: `ABRLAB_TEST_TAGS` (comma-separated)
/// keeps only tests with one of the tags, `ABRLAB_SKIP_TAGS` skips tests with any of them. Swift
/// Testing cannot filter by tag from the command line, so tagged suites carry this trait.
public struct TagSelection: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if let reason = Self.reasonToSkip(tags: test.tags) {
            try Test.cancel(Comment(rawValue: reason))
        }
        try await function()
    }

    /// Why a test with `tags` does not run under the environment's selection, or nil when it runs.
    public static func reasonToSkip(tags: Set<Tag>, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let names = Set(tags.map(name))
        let only = list(environment["ABRLAB_TEST_TAGS"])
        let skipped = list(environment["ABRLAB_SKIP_TAGS"])
        if let hit = names.intersection(skipped).sorted().first {
            return "skipped: tagged \(hit), which ABRLAB_SKIP_TAGS names"
        }
        if !only.isEmpty, names.isDisjoint(with: only) {
            return "skipped: none of its tags is in ABRLAB_TEST_TAGS"
        }
        return nil
    }

    /// A tag's name as the settings write it: `datasets` for `Tag.datasets`.
    public static func name(_ tag: Tag) -> String {
        let text = String(describing: tag)
        return text.hasPrefix(".") ? String(text.dropFirst()) : text
    }

    private static func list(_ value: String?) -> Set<String> {
        Set((value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }
}

extension Trait where Self == TagSelection {
    /// Applies `ABRLAB_TEST_TAGS` and `ABRLAB_SKIP_TAGS` to this suite or test and all it holds.
    public static var selectedByTags: Self { TagSelection() }
}
