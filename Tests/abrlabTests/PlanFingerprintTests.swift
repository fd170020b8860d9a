import Foundation
import Testing
import TestSupport

/// The plan's fingerprint covers every file a session's code is known to read: an edit of any
/// of them makes another plan, so shards and resumed runs of the two never mix.
@Suite(.tags(.cli), .selectedByTags) struct PlanFingerprintTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        /// Arguments after `compare`, with `@` standing for the fixture's folder.
        let arguments: [String]
        /// The file edited, relative to the fixture's folder.
        let file: String
        let edit: @Sendable (ScriptFilesFixture) throws -> Void
        var description: String { name }
    }

    static let cases = [
        Case(name: "a module", arguments: ["--strategies", "@/S/my_rule.lua"], file: "S/lib/myhelpers.lua") {
            try $0.edit("S/lib/myhelpers.lua", "local M = {}", "local M = {} -- a comment is an edit too")
        },
        Case(name: "a Lua script's model", arguments: ["--strategies", "@/S/pensieve.lua"], file: "S/models/pensieve.safetensors") {
            try $0.nudgeModel("S/models/pensieve.safetensors")
        },
        Case(name: "a module of a module", arguments: ["--strategies", "@/S/pensieve.lua"], file: "S/lib/numpy_random.lua") {
            try $0.edit("S/lib/numpy_random.lua", "local N, M = 624, 397", "local N, M = 624, 397 -- edited")
        },
        Case(
            name: "a native model", arguments: ["--strategies", "pensieve-native", "--param", "pensieve-native.model=@/S/models/pensieve.safetensors"],
            file: "S/models/pensieve.safetensors"
        ) { try $0.nudgeModel("S/models/pensieve.safetensors") },
        Case(name: "a QoE script's module", arguments: ["--strategies", "bba", "--qoe", "@/Q/q.lua"], file: "Q/weights.lua") {
            try $0.edit("Q/weights.lua", "4.3", "4.4")
        },
    ]

    static func manifest(_ out: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out).appendingPathComponent("run.json"))) as? [String: Any] ?? [:]
    }

    /// The hash `run.json` records for `path`, wherever it lists the file.
    static func recordedHash(_ manifest: [String: Any], path: String) -> String? {
        let strategies = manifest["strategies"] as? [[String: Any]] ?? []
        let files = strategies.flatMap { $0["inputs"] as? [[String: Any]] ?? [] } + (manifest["qoe_inputs"] as? [[String: Any]] ?? [])
        return files.first { $0["path"] as? String == path }?["sha256"] as? String
    }

    @Test(arguments: cases)
    func theFingerprintChangesWhenALoadedFileChanges(_ test: Case) throws {
        let fixture = try ScriptFilesFixture()
        let arguments = ["compare"] + test.arguments.map { $0.replacingOccurrences(of: "@", with: fixture.root.path) }
            + ["--traces", "Traces/default/4g_1.csv", "--video", "pensieve-cbr", "--quiet"]
        let file = fixture.path(test.file)
        var fingerprints: [String] = []
        for run in ["before", "after"] {
            if run == "after" { try test.edit(fixture) }
            let out = fixture.path(run)
            let result = try CLI.run(arguments + ["--out", out])
            #expect(result.status == 0, "\(result.stderr)")
            let manifest = try Self.manifest(out)
            fingerprints.append(manifest["fingerprint"] as? String ?? "")
            // The record is of the bytes that ran, which are the file's as it was then.
            #expect(Self.recordedHash(manifest, path: file) == (try RunManifestTests.sha256(file)), "\(run)")
        }
        #expect(fingerprints[0].count == 64 && fingerprints[0] != fingerprints[1])
    }
}
