import Foundation
import Testing
import TestSupport

/// The tag selection `scripts/test --quick`, `--tags` and `--skip-tags` rely on.
@Suite(.tags(.core), .selectedByTags) struct TagSelectionTests {
    @Test(arguments: [
        ([Tag.core], [:], true),
        ([Tag.core, .scale], ["ABRLAB_SKIP_TAGS": "datasets,scale"], false),
        ([Tag.core], ["ABRLAB_SKIP_TAGS": "datasets,scale"], true),
        ([Tag.lua, .golden], ["ABRLAB_TEST_TAGS": "golden"], true),
        ([Tag.lua], ["ABRLAB_TEST_TAGS": "golden, cli"], false),
        ([Tag.cli, .golden], ["ABRLAB_TEST_TAGS": "golden", "ABRLAB_SKIP_TAGS": "cli"], false),
        ([Tag.cli], ["ABRLAB_TEST_TAGS": "", "ABRLAB_SKIP_TAGS": ""], true),
    ] as [([Tag], [String: String], Bool)])
    func aTestRunsWhenItsTagsAreSelected(tags: [Tag], environment: [String: String], runs: Bool) {
        #expect((TagSelection.reasonToSkip(tags: Set(tags), environment: environment) == nil) == runs)
    }

    @Test func theReasonNamesTheSkippedTag() {
        let reason = TagSelection.reasonToSkip(tags: [.core, .scale], environment: ["ABRLAB_SKIP_TAGS": "scale"])
        #expect(reason == "skipped: tagged scale, which ABRLAB_SKIP_TAGS names")
    }

    /// `ABRLAB_TEST_TAGS` only works when every suite carries the selection trait and a target tag.
    @Test func everySuiteCarriesItsTargetsTagAndTheSelection() throws {
        let targets = ["ABRLabTests": ".core", "ABRLabLuaTests": ".lua", "ABRLabCompareTests": ".compare", "ABRLabCTests": ".capi", "abrlabTests": ".cli"]
        var unselected: [String] = []
        for (target, tag) in targets {
            let folder = PackageRoot.file("Tests/\(target)")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                for line in lines where line.hasPrefix("@Suite") {
                    if !line.contains(".selectedByTags") || !line.contains(".tags(\(tag)") {
                        unselected.append("\(target)/\(file): \(line)")
                    }
                }
                let declaresTests = text.contains("@Test")
                let hasSuite = lines.contains { $0.hasPrefix("@Suite") || $0.hasPrefix("extension ") }
                if declaresTests && !hasSuite { unselected.append("\(target)/\(file): tests outside a tagged suite") }
            }
        }
        #expect(unselected.isEmpty, "\(unselected.joined(separator: "\n"))")
    }
}
