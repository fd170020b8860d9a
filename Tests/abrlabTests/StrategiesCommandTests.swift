import Foundation
import Testing
import TestSupport

@Suite(.tags(.cli, .golden), .selectedByTags) struct StrategiesCommandTests {
    @Test func listsNativeAndScriptedStrategies() throws {
        let result = try CLI.run(["strategies"])
        #expect(result.status == 0, "\(result.stderr)")
        try CLI.expectGolden(result.stdout, "strategies-list.txt")
        #expect(result.stdout.contains("Strategies/conservative.lua (shadowed by native)"))
        #expect(result.stderr == "abrlab: \(Self.shadowWarning)\n")
    }

    static let shadowWarning = "Strategies/conservative.lua: warning: is shadowed by the native strategy 'conservative', "
        + "which the id 'conservative' runs; name the file to run the script"

    /// Every script of a folder is checked, one that does not load does not stop the others, and
    /// the exit code reports any failure.
    @Test func checkTakesSeveralFilesAndFolders() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "return { choose = function(ctx) return 1 end }\n".write(to: folder.appendingPathComponent("a_low.lua"), atomically: true, encoding: .utf8)
        try "return { choose = function(ctx) return ctx.level_count + 1 end }\n".write(to: folder.appendingPathComponent("b_wild.lua"), atomically: true, encoding: .utf8)
        try "return { choose = function(ctx) return 1 end\n".write(to: folder.appendingPathComponent("c_broken.lua"), atomically: true, encoding: .utf8)
        try "return { choose = function(ctx) return 1 end }\n".write(to: folder.appendingPathComponent("_helper.lua"), atomically: true, encoding: .utf8)
        let base = folder.path
        let result = try CLI.run(["strategies", "check", base, "bba", "bba-native"])
        #expect(result.status == 1)
        let passed = result.stdout.split(separator: "\n").filter { $0.hasSuffix(": all checks passed") }
        #expect(passed == ["\(base)/a_low.lua: all checks passed", "Strategies/bba.lua: all checks passed", "bba-native (native): all checks passed"])
        #expect(result.stderr.contains("abrlab: \(base)/b_wild.lua: session runs on steady: \(base)/b_wild.lua: choose returned 7; levels are 1…6 (segment 1 of steady)\n"))
        #expect(!result.stdout.contains("_helper"))
        #expect(result.stderr.contains("abrlab: \(base)/b_wild.lua: 10 check(s) failed\n"), "3 traces under 3 profiles, and a dead link")
        #expect(result.stderr.contains("abrlab: \(base)/c_broken.lua:2: '}' expected (to close '{' at line 1) near <eof>\n"))
        #expect(result.stderr.hasSuffix("abrlab: checks failed (2 of 5 strategies: \(base)/b_wild.lua, \(base)/c_broken.lua)\n"))

        let good = try CLI.run(["strategies", "check", "Strategies", "conservative"])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.hasSuffix("conservative (native): all checks passed\nall 10 strategies passed\n"))
        #expect(good.stdout.contains("Strategies/conservative.lua: all checks passed\n"))
    }

    @Test func checkRefusesAFolderWithoutScripts() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run(["strategies", "check", folder.path])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: \(folder.path): the folder holds no strategy scripts (*.lua)\n")
    }

    /// Ids from `strategies list` run as they are; `--baseline` adds its strategy when absent.
    @Test func strategiesAndBaselineTakeIdsFromTheList() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run(["compare", "--strategies", "bba", "bba-native", "--baseline", "rb", "--traces", "Traces/default/3g_1.csv", "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let summary = try CLI.read(out.appendingPathComponent("summary.csv")).split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[0]) }
        #expect(Set(summary) == ["bba", "bba-native", "rb"])
        #expect(result.stdout.contains("against rb, paired on the traces both completed:"))
        let sources = try CLI.read(out.appendingPathComponent("run.json"))
        #expect(sources.contains("Strategies/bba.lua") && sources.contains("Strategies/rb.lua"))

        let byPath = try CLI.run(["compare", "--strategies", "Strategies/bba.lua", "--baseline", "Strategies/bba.lua", "--traces", "Traces/default/3g_1.csv", "--out", out.path, "--quiet"])
        #expect(byPath.status == 0, "\(byPath.stderr)")

        let unknown = try CLI.run(["compare", "--strategies", "bbb", "--traces", "Traces/default/3g_1.csv", "--out", out.path, "--quiet"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("abrlab: bbb: no such strategy: not a native id (conservative, bba-native, robust_mpc-native, pensieve-native, genet, mlp, sabre/bola-native, sabre/bolae-native, sabre/dynamic-native, sabre/dynamicdash-native, sabre/throughput-native, dashjs, dashjs/bola, dashjs/throughput, dashjs/l2a, dashjs/lolp), the id of a script in Strategies/"))
    }

    @Test func aShadowedScriptInANamedFolderIsReportedOnce() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let named = try CLI.run(["compare", "--strategies", "conservative", "--traces", "Traces/default/3g_1.csv", "--out", out.path])
        #expect(named.status == 0)
        #expect(named.stderr.isEmpty, "the shadowing is shown by strategies list, not at every run naming the native id")
        let folder = try CLI.run(["compare", "--strategies", "Strategies", "conservative", "--traces", "Traces/default/3g_1.csv", "--out", out.path])
        #expect(folder.status == 0)
        #expect(folder.stderr == "abrlab: Strategies/conservative.lua: warning: is skipped: the native strategy 'conservative' has the same id and runs instead; name the file, not 'conservative', to run the script\n")
        let quiet = try CLI.run(["compare", "--strategies", "Strategies", "conservative", "--traces", "Traces/default/3g_1.csv", "--out", out.path, "--quiet"])
        #expect(quiet.stderr == folder.stderr, "--quiet silences progress, never a warning")
        let alone = try CLI.run(["compare", "--strategies", "Strategies", "--traces", "Traces/default/3g_1.csv", "--out", out.path])
        #expect(alone.status == 0)
        #expect(alone.stderr == "abrlab: Strategies/conservative.lua: warning: has the id of the native strategy 'conservative'; results under 'conservative' are this script's\n")
        let byDefault = try CLI.run(["compare", "--traces", "Traces/default/3g_1.csv", "--out", out.path])
        #expect(byDefault.stderr.isEmpty, "the default run documents that the native conservative stands in for the script")
    }

    @Test func checkPassesTheTemplate() throws {
        let result = try CLI.run(["strategies", "check", "Strategies/_template.lua"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("Strategies/_template.lua: all checks passed\n"))
        #expect(result.stderr.isEmpty)
    }

    @Test func checkReportsAnOutOfRangeScript() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("wild.lua")
        try "return { name = 'wild', choose = function(ctx) return ctx.level_count + 1 end }\n".write(to: script, atomically: true, encoding: .utf8)
        let result = try CLI.run(["strategies", "check", script.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("wild.lua: choose returned 7; levels are 1…6"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("abrlab: \(script.path): 10 check(s) failed\nabrlab: checks failed\n"))
    }

    @Test func defaultCompareRunsTheLibraryAndConservative() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run(["compare", "--out", out.path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let strategies = Set(try CLI.read(out.appendingPathComponent("summary.csv")).split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[0]) })
        #expect(strategies == ["bba", "bola", "conservative", "dynamic", "festive", "pensieve", "rb", "robust_mpc", "throughput"])
    }

    @Test func aFailingScriptMarksItsRowsAndTheExitCode() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("broken.lua")
        try "return { choose = function(ctx)\n  if ctx.segment_index > 3 then error('gave up') end\n  return 1\nend }\n".write(to: script, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run(["compare", "--strategies", script.path, "Strategies/bba.lua", "--traces", "Traces/default", "--out", out.path, "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: 12 session(s) failed; see the error column of sessions.csv\n")
        let rows = try CLI.read(out.appendingPathComponent("sessions.csv")).split(separator: "\n").dropFirst()
        let broken = rows.filter { $0.hasPrefix("broken,") }
        #expect(broken.count == 12)
        #expect(broken.allSatisfy { $0.contains("broken.lua:2: gave up (segment 4 of ") })
        let errorColumn = 14 // sessions.csv: strategy, trace, …, seed, error, then the playback columns
        #expect(rows.filter { $0.hasPrefix("bba,") }.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false)[errorColumn].isEmpty })
        let summary = try CLI.read(out.appendingPathComponent("summary.csv"))
        // Unranked, incomplete, no session finished, 12 failed, no trace every strategy completed.
        #expect(summary.contains("\nbroken,,false,0,12,0,"))
    }
}

/// pensieve-native and its parameters from the command line.
@Suite(.tags(.cli), .selectedByTags) struct PensieveCommandTests {
    @Test func nativeParametersAreSetWithParam() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let base = ["compare", "--strategies", "pensieve-native", "Strategies/pensieve.lua", "--profile", "pensieve", "--video", "pensieve-cbr", "--quiet"]
        let sampled = try CLI.run(base + ["--out", out.appendingPathComponent("a").path])
        #expect(sampled.status == 0, "\(sampled.stderr)")
        let argmax = try CLI.run(base + ["--param", "pensieve-native.action=argmax", "--param", "pensieve.action=argmax", "--out", out.appendingPathComponent("b").path])
        #expect(argmax.status == 0, "\(argmax.stderr)")
        // The script and the native strategy play alike, whichever action.
        // (All columns but the strategy and its derived session seed.)
        for folder in ["a", "b"] {
            let lines = try CLI.read(out.appendingPathComponent(folder).appendingPathComponent("sessions.csv")).split(separator: "\n")
            let header = lines[0].split(separator: ",").map(String.init)
            let seed = try #require(header.firstIndex(of: "seed"))
            let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            func played(_ id: String) -> [String] {
                rows.filter { $0[0] == id }.map { row in row.indices.filter { $0 != 0 && $0 != seed }.map { String(row[$0]) }.joined(separator: ",") }
            }
            #expect(!played("pensieve-native").isEmpty && played("pensieve-native") == played("pensieve"))
        }
    }

    @Test(arguments: [
        (["--param", "pensieve-native.action=greedy"], "abrlab: --param: parameter pensieve-native.action needs sampled or argmax, not 'greedy'\n"),
        (["--param", "pensieve-native.model=missing.safetensors"], "abrlab: missing.safetensors: no such file\n"),
        (["--param", "pensieve-native.depth=3"], "abrlab: --param: unknown parameter 'depth' in pensieve-native.depth=3; parameters are action, model, seed\n"),
    ])
    func badParametersGetOneLineAndWriteNothing(arguments: [String], message: String) throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let target = out.appendingPathComponent("results")
        let result = try CLI.run(["compare", "--strategies", "pensieve-native", "--out", target.path, "--quiet"] + arguments)
        #expect(result.status != 0)
        #expect(result.stderr == message)
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test func aBadModelFromLuaIsOneLineNamingScriptAndModel() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("models"), withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: folder.appendingPathComponent("models/broken.safetensors"))
        let script = folder.appendingPathComponent("learned.lua")
        try Data("local net = abrlab.model('models/broken.safetensors')\nreturn { choose = function() return 1 end }\n".utf8).write(to: script)
        let result = try CLI.run(["compare", "--strategies", script.path, "--out", folder.appendingPathComponent("out").path, "--quiet"])
        #expect(result.status != 0)
        #expect(result.stderr == "abrlab: \(script.path):1: abrlab.model: \(folder.path)/models/broken.safetensors: truncated: 3 bytes; a safetensors file starts with an 8-byte header length\n")
    }
}
