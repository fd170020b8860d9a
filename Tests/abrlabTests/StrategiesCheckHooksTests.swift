import Foundation
import Testing
import TestSupport

/// `strategies check` runs every hook under the profile that calls it, and the hooks it refuses
/// fail a compare with one clear line per session.
@Suite(.tags(.cli), .selectedByTags) struct StrategiesCheckHooksTests {
    /// Top level after the first segment; `hook` is the abandonment check's body, on line 6.
    static func script(hook: String) -> String {
        """
        local M = { name = "hooked" }
        function M.choose(ctx)
          if ctx.last_level == nil then return 1 end
          return ctx.level_count
        end
        function M.check_abandon(p)
          \(hook)
        end
        return M

        """
    }

    static let hooks = [
        ("forever", "if p.level > 1 then return 1 end", "abandoned segment 2 1000 times (the limit per segment) on "),
        ("same", "if p.received_bytes > 0 then return p.level end", "check_abandon returned 6; expected nil or a level below 6"),
        ("higher", "return p.level + 1", "check_abandon returned 7; expected nil or a level below 6"),
    ]

    @Test(arguments: hooks)
    func checkRunsTheAbandonmentHookUnderSabre(name: String, hook: String, message: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("\(name).lua").path
        try Self.script(hook: hook).write(toFile: path, atomically: true, encoding: .utf8)
        let result = try CLI.run(["strategies", "check", path])
        #expect(result.status == 1)
        for trace in ["steady", "variable", "slow"] {
            #expect(result.stderr.contains("abrlab: \(path): session runs on \(trace) (sabre): \(path):6: \(message)"), "\(result.stderr)")
        }
        #expect(result.stdout.contains("\(path): steady (live): levels 1 6 6"), "choose is run under live too")
        #expect(result.stderr.hasSuffix("abrlab: \(path): 3 check(s) failed\nabrlab: checks failed\n"), "\(result.stderr)")
    }

    /// In a compare each session ends with the check's file and line, and the other strategy's
    /// sessions complete.
    @Test(arguments: hooks)
    func compareEndsSuchSessionsWithOneLine(name: String, hook: String, message: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("\(name).lua").path
        try Self.script(hook: hook).write(toFile: path, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out")
        let result = try CLI.run([
            "compare", "--profile", "sabre", "--strategies", path, "bba", "--traces", "Traces/3g/3g_1.csv", "Traces/3g/3g_2.csv", "Traces/3g/3g_3.csv", "--out", out.path, "--quiet",
        ])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: 3 session(s) failed; see the error column of sessions.csv\n", "\(result.stderr)")
        let rows = try CLI.read(out.appendingPathComponent("sessions.csv")).split(separator: "\n").dropFirst()
        let failed = rows.filter { $0.hasPrefix("\(name),") }
        #expect(failed.count == 3)
        #expect(failed.allSatisfy { $0.contains(",\(path):6: \(message)") && !$0.contains("memory") }, "\(failed)")
        #expect(rows.filter { $0.hasPrefix("bba,") }.count == 3)
    }

    /// Waits and live choices are checked where they happen.
    @Test func checkRunsOnWaitUnderSabreAndRatesUnderLive() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let waits = folder.appendingPathComponent("waits.lua").path
        try "local M = {}\nfunction M.choose(ctx) return 1 end\nfunction M.on_wait(w) error('waited') end\nreturn M\n"
            .write(toFile: waits, atomically: true, encoding: .utf8)
        let rates = folder.appendingPathComponent("rates.lua").path
        try "return { choose = function(ctx) if ctx.live then return 1, 0, 3 end return 1 end }\n"
            .write(toFile: rates, atomically: true, encoding: .utf8)
        let result = try CLI.run(["strategies", "check", waits, rates])
        #expect(result.status == 1)
        #expect(result.stderr.contains("abrlab: \(waits): session runs on steady (sabre): \(waits):3: waited (segment "), "\(result.stderr)")
        #expect(!result.stderr.contains("\(waits): session runs on steady:"), "no waits are reported off sabre")
        #expect(result.stderr.contains("abrlab: \(rates): session runs on steady (live): \(rates): choose returned a playback rate of 3; rates are nil or 0.5…2 (segment 1 of steady)\n"), "\(result.stderr)")
        #expect(result.stderr.contains("abrlab: \(rates): 3 check(s) failed\n"))
    }
}
