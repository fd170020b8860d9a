import ABRLab
import ABRLabResults
import Foundation
import Testing
import TestSupport

/// docs/output.md describes every file a compare writes; these tests keep it exact.
@Suite(.tags(.cli), .selectedByTags) struct OutputDocsTests {
    /// The names in the first column of each "## `file`" section's tables.
    static func documentedNames() throws -> [String: Set<String>] {
        let text = try CLI.read(CLI.packageRoot.appendingPathComponent("docs/output.md"))
        var sections: [String: Set<String>] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                let title = line.dropFirst(3)
                current = title.hasPrefix("`") && title.hasSuffix("`") ? String(title.dropFirst().dropLast()) : nil
            } else if let current, line.hasPrefix("| `") {
                let cell = line.dropFirst(3).prefix { $0 != "`" }
                sections[current, default: []].insert(String(cell))
            }
        }
        return sections
    }

    static func header(_ url: URL) throws -> Set<String> {
        Set(try CLI.read(url).prefix { $0 != "\n" }.split(separator: ",").map(String.init))
    }

    @Test func everyFileAndColumnOfAGroupedCompareIsDocumented() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        // The audio preset carries formats, so every per-session file is written; a weighted mix
        // writes every key of run.json's shared_link.
        let result = try CLI.run([
            "compare", "--mix", "conservative,bba-native", "--share", "weighted", "--weights", "1,2", "--traces", "Traces/default/3g_1.csv",
            "--video", "audio", "--buffer-timeline", "--out", out.path, "--quiet",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let documented = try Self.documentedNames()
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".csv") }.sorted()
        #expect(written == ["buffer_timeline.csv", "formats.csv", "groups.csv", "segments.csv", "sessions.csv", "summary.csv", "transitions.csv"])
        for file in written {
            #expect(try Self.header(out.appendingPathComponent(file)) == documented[file], "columns of \(file)")
        }
        let run = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any])
        let sharedLink = try #require(run["shared_link"] as? [String: Any])
        let documentedLink = documented["run.json"]?.filter { $0.hasPrefix("shared_link.") }.map { String($0.dropFirst(12)) }
        #expect(Set(sharedLink.keys) == Set(documentedLink ?? []))
    }

    @Test func everyFileAndColumnACompareWritesIsDocumented() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        // The audio preset carries formats, so formats.csv is written too.
        let result = try CLI.run([
            "compare", "--strategies", "conservative", "bba-native", "--traces", "Traces/default/3g_1.csv", "Traces/default/4g_1.csv",
            "--video", "audio", "--baseline", "conservative", "--buffer-timeline", "--out", out.path, "--quiet",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        let documented = try Self.documentedNames()
        // Only a run whose players share links writes groups.csv and the group and player columns.
        #expect(Set(written) == Set(documented.keys).subtracting(["groups.csv"]), "files written vs. sections of docs/output.md")
        for file in written where file.hasSuffix(".csv") {
            #expect(try Self.header(out.appendingPathComponent(file)) == documented[file]?.subtracting(["group", "player"] + GroupSummary.header), "columns of \(file)")
        }

        let ranked = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("ranked.json"))) as? [String: Any])
        var keys = Set(ranked.keys)
        for list in ["ranked", "incomplete", "comparisons"] {
            for entry in ranked[list] as? [[String: Any]] ?? [] { keys.formUnion(entry.keys) }
        }
        #expect(keys == documented["ranked.json"])

        let run = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any])
        // Only a run whose players share links writes shared_link (checked above), and only one
        // that names a dataset by id writes datasets (DatasetInputsTests).
        let runKeys = Set(documented["run.json"]?.map { String($0.prefix { $0 != "." }) } ?? []).subtracting(["shared_link", "datasets"])
        // A Lua QoE model's run writes qoe_file and qoe_inputs and leaves the built-in model's keys out.
        let luaOut = out.appendingPathComponent("lua")
        let lua = try CLI.run([
            "compare", "--strategies", "bba-native", "--traces", "Traces/default/3g_1.csv", "--qoe", "QoE/linear.lua",
            "--out", luaOut.path, "--quiet",
        ])
        #expect(lua.status == 0, "\(lua.stderr)")
        let luaRun = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: luaOut.appendingPathComponent("run.json"))) as? [String: Any])
        #expect(Set(run.keys).union(luaRun.keys) == runKeys)
        #expect(Set(run.keys).symmetricDifference(luaRun.keys) == ["qoe_file", "qoe_inputs", "qoe_model", "rebuffer_penalty", "smoothness_penalty"])
        let video = try #require((run["inputs"] as? [String: Any])?["video"] as? [String: Any])
        let videoKeys = Set(documented["run.json"]?.filter { $0.hasPrefix("inputs.video.") }.map { String($0.dropFirst(13)) } ?? [])
        #expect(Set(video.keys) == videoKeys)
        // Keys are written explicitly, never a Swift property's name: none is camelCase.
        for document in [run, luaRun] {
            let camel = Self.keys(of: document).filter { $0.contains { $0.isUppercase } }
            #expect(camel.isEmpty, "run.json keys named after Swift properties: \(camel.sorted())")
        }
        let settings = try #require(run["settings"] as? [String: Any])
        #expect(settings["bandwidth_multiplier"] as? Double == 1)
        #expect(settings["traces"] as? [String] == ["Traces/default/3g_1.csv", "Traces/default/4g_1.csv"])
    }

    /// Every key of a JSON value, at any depth.
    static func keys(of value: Any) -> Set<String> {
        if let object = value as? [String: Any] {
            return object.reduce(into: Set(object.keys)) { $0.formUnion(keys(of: $1.value)) }
        }
        return (value as? [Any] ?? []).reduce(into: []) { $0.formUnion(keys(of: $1)) }
    }

    /// docs/output.md: every number is the shortest text that parses back to the same double.
    /// Every numeric field of every data file, on a default, a live and a replacing sabre compare
    /// (whose columns the others leave empty), is an integer in its plain form or the shortest
    /// digits that give back its double (`0.136`, `1e-05`, whole ones as `750`, never `750.0`),
    /// `inf` or `-inf`, or empty.
    @Test func everyNumberIsTheShortestTextThatParsesBackToItsDouble() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let runs = [
            ["--strategies", "conservative", "bba-native", "Strategies/bola.lua", "--traces", "Traces/default", "--video", "audio", "--buffer-timeline"],
            ["--profile", "live", "--video", "twitch-ll", "--traces", "Traces/twitch-ll", "--strategies", "Strategies/live"],
            ["--profile", "sabre", "--replace", "right", "--strategies", "Strategies/sabre/bolae.lua", "--traces", "Traces/3g"],
        ]
        var checked: [String: Int] = [:]
        var whole: Set<String> = []
        for (index, arguments) in runs.enumerated() {
            let folder = out.appendingPathComponent("\(index)")
            let result = try CLI.run(["compare"] + arguments + ["--out", folder.path, "--quiet"])
            #expect(result.status == 0, "\(result.stderr)")
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".csv") && file != "summary.csv" {
                let table = try CSVTable(try CLI.read(folder.appendingPathComponent(file)), file: file)
                for (column, name) in table.header.enumerated() {
                    let fields = table.rows.map { $0[column] }.filter { !$0.isEmpty }
                    guard !fields.isEmpty, fields.allSatisfy({ Double($0) != nil }) else { continue }
                    for field in fields {
                        #expect(Self.shortest(field) == field, "\(file), column \(name): \(field)")
                        if Self.shortest(field) != field { break }
                    }
                    checked["\(file) \(name)", default: 0] += fields.count
                    if fields.contains(where: { Double($0).map { $0 == $0.rounded() && $0.isFinite } ?? false }) { whole.insert("\(file) \(name)") }
                }
            }
        }
        for name in SessionCSV.segmentsHeader where !["strategy", "trace", "buffer_state", "network_quality", "likely_to_keep_up"].contains(name) {
            #expect((checked["segments.csv \(name)"] ?? 0) > 0, "segments.csv's \(name) was never checked")
        }
        // Columns of doubles that hold whole numbers were met, so a `750.0` would have failed.
        for column in ["segments.csv bitrate_kbps", "segments.csv download_start_s", "segments.csv wasted_bytes", "sessions.csv rebuffer_s", "transitions.csv time_s"] {
            #expect(whole.contains(column), "\(column) held no whole number")
        }
    }

    /// The form docs/output.md gives a number: an integer as `String(Int)`; a double as its
    /// shortest round-trip digits, whole ones without `.0`, `-0` for negative zero; `nil` when
    /// `field` is not a number.
    static func shortest(_ field: String) -> String? {
        if field == "-0" { return field }
        if !field.contains(where: { ".en".contains($0) }) { return Int(field).map { String($0) } ?? UInt64(field).map { String($0) } }
        guard let value = Double(field) else { return nil }
        if value.isInfinite { return value > 0 ? "inf" : "-inf" }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
