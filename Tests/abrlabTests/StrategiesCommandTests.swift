import Foundation
import Testing

@Suite struct StrategiesCommandTests {
    @Test func listsNativeAndScriptedStrategies() throws {
        let result = try CLI.run(["strategies"])
        #expect(result.status == 0, "\(result.stderr)")
        try CLI.expectGolden(result.stdout, "strategies-list.txt")
    }

    @Test func checkPassesTheTemplate() throws {
        let result = try CLI.run(["strategies", "check", "Strategies/_template.lua"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("_template: all checks passed\n"))
    }

    @Test func checkReportsAnOutOfRangeScript() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("wild.lua")
        try "return { name = 'wild', choose = function(ctx) return ctx.level_count + 1 end }\n".write(to: script, atomically: true, encoding: .utf8)
        let result = try CLI.run(["strategies", "check", script.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("wild.lua: choose returned 7; levels are 1…6"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("abrlab: wild: 4 check(s) failed\n"))
    }

    @Test func defaultCompareRunsTheLibraryAndConservative() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run(["compare", "--out", out.path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let strategies = Set(try CLI.read(out.appendingPathComponent("summary.csv")).split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[0]) })
        #expect(strategies == ["bba", "bola", "conservative", "dynamic", "festive", "rb", "robust_mpc", "throughput"])
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
        #expect(summary.contains("broken,0,12,"))
    }
}
