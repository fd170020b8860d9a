import Foundation
import Testing
import TestSupport

/// The `abrlab compare` recipes of docs/strategies.md run as they are written (from the package
/// root, where `../shared/datasets` is), and the figures the page quotes from them are what they
/// print: a copied recipe works and says what the page says.
@Suite(.tags(.cli, .datasets, .scale), .selectedByTags, .needsDatasets("pensieve"), .needsDatasets("genet"))
struct DocsRecipesTests {
    /// Each `abrlab compare` command of the page's `sh` blocks, its continuation lines joined,
    /// split into arguments (the recipes quote nothing).
    static func recipes(in page: String) throws -> [[String]] {
        let text = try CLI.read(CLI.packageRoot.appendingPathComponent(page))
        var commands: [[String]] = []
        var inBlock = false
        var pending = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock = line == "```sh"
                continue
            }
            guard inBlock else { continue }
            let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            pending += code.trimmingCharacters(in: .whitespaces)
            if pending.hasSuffix("\\") {
                pending = String(pending.dropLast()) + " "
                continue
            }
            let words = pending.split(separator: " ").map(String.init)
            pending = ""
            if words.starts(with: ["abrlab", "compare"]) { commands.append(Array(words.dropFirst())) }
        }
        return commands
    }

    @Test func strategiesRecipesRunAndPrintTheQuotedFigures() throws {
        let recipes = try Self.recipes(in: "docs/strategies.md")
        #expect(recipes.count == 3, "\(recipes)")
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var printed: [String] = []
        for (index, recipe) in recipes.enumerated() {
            let result = try CLI.run(recipe + ["--out", folder.appendingPathComponent("\(index)").path])
            #expect(result.status == 0, "\(recipe): \(result.stderr)")
            printed.append(result.stdout)
        }
        // The comparison from one start, as the page quotes it.
        let table = try #require(printed.last)
        for row in ["1  pensieve-native         142  25.12", "2  genet                   142   18.28", "genet                142    71"] {
            #expect(table.contains(row), "\(table)")
        }
        #expect(table.components(separatedBy: "       1.70\n").count - 1 == 4, "every strategy starts in 1.70 s: \(table)")
    }
}
