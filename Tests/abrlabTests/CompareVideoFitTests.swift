import Foundation
import Testing
import TestSupport

/// A strategy that cannot play the run's video at all is refused or skipped before any session.
@Suite(.tags(.cli), .selectedByTags) struct CompareVideoFitTests {
    /// Writes a 10-level Sabre manifest into `folder` through `abrlab videos generate`.
    static func tenLevelVideo(in folder: URL) throws -> URL {
        let video = folder.appendingPathComponent("ten.json")
        let made = try CLI.run([
            "videos", "generate", "--out", video.path, "--ladder-kbps", "230,331,477,688,991,1427,2056,2962,5027,6000", "--segments", "48",
        ])
        #expect(made.status == 0, "\(made.stderr)")
        return video
    }

    @Test func theShippedFolderOnATenLevelVideoSkipsPensieveAndRanksTheOthers() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try Self.tenLevelVideo(in: folder)
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run([
            "compare", "--strategies", "Strategies", "--video", video.path, "--traces", "Traces/default", "--baseline", "rb",
            "--out", out.path, "--quiet",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // One line says why, even with --quiet.
        let skipped = result.stderr.split(separator: "\n").filter { $0.contains("skipped") }
        #expect(skipped == [
            "abrlab: Strategies/pensieve.lua: warning: 'pensieve' is skipped: it cannot play the video ten: "
                + "the model has 6 actions and 8 columns; the video has 10 levels",
        ], "\(result.stderr)")
        let summary = try CompareRankingTests.csv(out.appendingPathComponent("summary.csv"))
        #expect(!summary.contains { $0["strategy"] == "pensieve" })
        #expect(summary.count == 8)
        #expect(summary.allSatisfy { $0["complete"] == "true" && $0["sessions"] == "12" && !($0["qoe_total_mean"] ?? "").isEmpty })
        #expect(summary.compactMap { Int($0["rank"] ?? "") } == Array(1...8))
        try CompareRankingTests.expectGapsAgreeWithPairs(summary, baseline: "rb")
        let sessions = try CLI.read(out.appendingPathComponent("sessions.csv"))
        #expect(!sessions.contains("\npensieve,"))
        // And run.json records it among the run's warnings.
        let run = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any])
        let warnings = try #require(run["warnings"] as? [String])
        #expect(warnings.contains { $0.hasPrefix("Strategies/pensieve.lua: warning: 'pensieve' is skipped") }, "\(warnings)")
    }

    @Test(arguments: [
        (["pensieve", "bba"], "abrlab: Strategies/pensieve.lua: cannot play the video ten: the model has 6 actions and 8 columns; the video has 10 levels\n"),
        (["pensieve-native"], "abrlab: pensieve-native: cannot play the video ten: the model has 6 actions but the video has 10 levels; pensieve-native plays action i as level i\n"),
    ])
    func aStrategyNamedExplicitlyThatCannotPlayTheVideoIsRefused(strategies: [String], message: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try Self.tenLevelVideo(in: folder)
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run(["compare", "--strategies"] + strategies + ["--video", video.path, "--out", out.path])
        #expect(result.status == 1)
        #expect(result.stderr == message)
        #expect(!FileManager.default.fileExists(atPath: out.path))
        // abrlab run refuses it the same way.
        let run = try CLI.run(["run", "--strategy", strategies[0], "--trace", "Traces/default/3g_1.csv", "--video", video.path])
        #expect(run.status == 1)
        #expect(run.stderr == message)
    }

    @Test func aScriptsCheckHookSeesTheVideoAndItsParameters() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scripts = folder.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try """
            return {
              params = { most = 6 },
              check = function(video)
                if video.level_count > video.params.most then
                  return string.format("needs at most %d levels, the video has %d (top %g kbps, %s profile)",
                    video.params.most, video.level_count, video.levels_kbps[video.level_count], video.profile)
                end
              end,
              choose = function(ctx) return 1 end,
            }
            """.write(to: scripts.appendingPathComponent("small.lua"), atomically: true, encoding: .utf8)
        try "return { choose = function(ctx) return 1 end }\n".write(to: scripts.appendingPathComponent("any.lua"), atomically: true, encoding: .utf8)
        let video = try Self.tenLevelVideo(in: folder)
        let base = ["compare", "--strategies", scripts.path, "--video", video.path, "--traces", "Traces/3g", "--quiet"]
        let skipped = try CLI.run(base + ["--out", folder.appendingPathComponent("a").path])
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stderr == "abrlab: \(scripts.path)/small.lua: warning: 'small' is skipped: it cannot play the video ten: "
            + "needs at most 6 levels, the video has 10 (top 6000 kbps, default profile)\n")
        // A parameter that lets it play: it runs.
        let runs = try CLI.run(base + ["--param", "small.most=10", "--out", folder.appendingPathComponent("b").path])
        #expect(runs.status == 0, "\(runs.stderr)")
        #expect(runs.stderr.isEmpty, "\(runs.stderr)")
        #expect(try CLI.read(folder.appendingPathComponent("b/summary.csv")).contains("\nsmall,"))
    }

    @Test(arguments: [
        ("check = function(video) return 3 end,", "bad.lua: check returned 3; it returns nil (or true) when the strategy can play the video, else a string saying why not"),
        ("check = function(video) return video.levels end,", "bad.lua:1: video has no field 'levels'"),
        ("check = 'no',", "bad.lua: check must be a function, not a string value"),
    ])
    func aBrokenCheckHookIsOneLineNamingTheScript(hook: String, message: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("bad.lua")
        try "return { \(hook) choose = function(ctx) return 1 end }\n".write(to: script, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run(["compare", "--strategies", script.path, "--traces", "Traces/3g", "--out", out.path])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: \(folder.path)/\(message)\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
