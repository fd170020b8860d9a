import ABRLab
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// ctx's `dashjs_` fields: dash.js 5.1.1's default rules watching a Lua session on the `dashjs` profile
/// (``DashJSAdvisor``), nil elsewhere.
@Suite(.tags(.lua), .selectedByTags) struct LuaDashJSViewTests {
    static func video() throws -> Video {
        try Video(name: "ladder", segmentDurationSeconds: 4,
                  ladder: [300, 750, 1200, 1850, 2850, 4300].map { BitrateLevel(bitrate: $0 * 1000, label: "\($0)k") },
                  segmentCount: 60)
    }

    /// Links that move between 2.6 and 20 Mbit/s: BOLA takes over from ThroughputRule and delays requests, and no
    /// download is slow enough for dash.js's AbandonRequestsRule, so `dashjs` and its view play alike.
    static let traces: [(name: String, kbps: [Double])] = [
        ("waves", [8000, 3000, 6000, 2600, 9000]),
        ("climb", [2600, 4000, 6000, 8000, 12000]),
        ("fast", [20000]),
    ]

    static func trace(_ name: String, _ kbps: [Double]) throws -> NetworkTrace {
        let ends = stride(from: 40.0, through: 600, by: 40).map { $0 }
        return try NetworkTrace(name: name, periodEndSeconds: ends, bandwidthBitsPerSecond: ends.indices.map { kbps[$0 % kbps.count] * 1000 },
                                latencySeconds: ends.map { _ in 0.04 })
    }

    static let echo = """
        local M = {}
        function M.choose(ctx) return ctx.dashjs_level, ctx.dashjs_bola_delay_s end
        return M
        """

    @Test(arguments: traces.map(\.name))
    func aScriptThatPlaysDashJSsChoicePlaysWhatDashJSPlays(trace name: String) throws {
        let kbps = try #require(Self.traces.first { $0.name == name }).kbps
        let trace = try Self.trace(name, kbps)
        var native = DashJSStrategy(ruleSet: .default)
        let expected = try SessionEmulator(profile: .dashjs).run(&native, strategyID: "x", trace: trace, video: Self.video())
        #expect(expected.segments.allSatisfy { $0.requests == 1 }, "dashjs abandoned a download: the trace does not test the view")
        #expect(Set(expected.segments.map(\.level)).count > 1, "dashjs kept to one level: the trace does not test the view")
        let folder = try ScriptFolder()
        var script = try folder.load("echo.lua", Self.echo).makeStrategy()
        let played = try SessionEmulator(profile: .dashjs).run(&script, strategyID: "x", trace: trace, video: Self.video())
        #expect(played.segments == expected.segments)
    }

    /// docs/lua-api.md's example runs on the profile and off it.
    @Test func theDocsExamplePlays() throws {
        let docs = try String(contentsOf: StrategyLibraryTests.packageRoot.appendingPathComponent("docs/lua-api.md"), encoding: .utf8)
        let section = try #require(docs.range(of: "## dash.js's view"))
        let open = try #require(docs.range(of: "```lua\n", range: section.upperBound..<docs.endIndex))
        let close = try #require(docs.range(of: "```", range: open.upperBound..<docs.endIndex))
        let folder = try ScriptFolder()
        let script = try folder.load("capped.lua", String(docs[open.upperBound..<close.lowerBound]))
        let trace = try Self.trace("waves", Self.traces[0].kbps)
        for profile in [EmulationProfile.dashjs, .sabre] {
            var strategy = script.makeStrategy()
            let result = try SessionEmulator(profile: profile).run(&strategy, strategyID: "capped", trace: trace, video: Self.video())
            #expect(result.segments.count == 60)
        }
    }

    /// The fields each decision sees, as "segment:field=value;…" lines.
    static let report = """
        local M = {}
        local seen = {}
        local names = {"dashjs_level", "dashjs_throughput_kbps", "dashjs_safe_throughput_kbps", "dashjs_latest_throughput_kbps",
          "dashjs_buffer_s", "dashjs_bola_active", "dashjs_throughput_rule_level", "dashjs_bola_level",
          "dashjs_insufficient_buffer_level", "dashjs_switch_history_level", "dashjs_bola_phase", "dashjs_bola_placeholder_s",
          "dashjs_bola_delay_s"}
        function M.choose(ctx)
          local line = {}
          for _, name in ipairs(names) do line[#line + 1] = name .. "=" .. tostring(ctx[name]) end
          seen[#seen + 1] = table.concat(line, ";")
          if ctx.segment_index == ctx.segment_count then error("SEEN:" .. table.concat(seen, "#") .. "#", 0) end
          return ctx.dashjs_level or 1
        end
        return M
        """

    static func seen(profile: EmulationProfile) throws -> [[String: String]] {
        let folder = try ScriptFolder()
        var script = try folder.load("report.lua", Self.report).makeStrategy()
        let trace = try Self.trace("waves", Self.traces[0].kbps)
        let failure = Fixture.failure { _ = try SessionEmulator(profile: profile).run(&script, strategyID: "r", trace: trace, video: Self.video()) } ?? ""
        guard let start = failure.range(of: "SEEN:") else { throw TestFailure("the script did not report: \(failure)") }
        let text = failure[start.upperBound...]
        return text[..<(text.lastIndex(of: "#") ?? text.endIndex)].split(separator: "#").map { line in
            Dictionary(line.split(separator: ";").map { pair in
                let halves = pair.split(separator: "=", maxSplits: 1)
                return (String(halves[0]), halves.count > 1 ? String(halves[1]) : "")
            }, uniquingKeysWith: { first, _ in first })
        }
    }

    @Test func everyFieldIsNilOffTheDashJSProfile() throws {
        for profile in [EmulationProfile.sabre, .default] {
            for line in try Self.seen(profile: profile) {
                #expect(line.values.allSatisfy { $0 == "nil" }, "\(profile.name): \(line)")
            }
        }
    }

    @Test func theFieldsFollowTheSession() throws {
        let lines = try Self.seen(profile: .dashjs)
        // The first segment: the initial bitrate's level (the highest within 1000 kbps: 750, level 2), no rule ran.
        #expect(lines[0]["dashjs_level"] == "2")
        #expect(lines[0]["dashjs_throughput_kbps"] == "nil")
        #expect(lines[0]["dashjs_bola_phase"] == "nil")
        #expect(lines[0]["dashjs_throughput_rule_level"] == "nil")
        for line in lines.dropFirst() {
            let average = try #require(line["dashjs_throughput_kbps"].flatMap(Double.init), "\(line)")
            let safe = try #require(line["dashjs_safe_throughput_kbps"].flatMap(Double.init))
            #expect(average == average.rounded())
            #expect(safe == average * 0.9)
            #expect(line["dashjs_latest_throughput_kbps"].flatMap(Double.init) != nil)
            #expect(line["dashjs_throughput_rule_level"].flatMap(Int.init) != nil)
            #expect(line["dashjs_bola_active"] == "true" || line["dashjs_bola_active"] == "false")
            // Exactly one of BOLA and ThroughputRule decides.
            #expect((line["dashjs_bola_active"] == "true") == (line["dashjs_bola_level"] != "nil"), "\(line)")
            let buffer = try #require(line["dashjs_buffer_s"].flatMap(Double.init))
            #expect(buffer >= 0 && (buffer * 1000).rounded() == buffer * 1000)
            #expect(try #require(line["dashjs_bola_delay_s"].flatMap(Double.init)) >= 0)
        }
        // On this link BOLA takes over and keeps a placeholder; before its first call it has neither.
        #expect(lines.contains { $0["dashjs_bola_phase"] == "steady" })
        #expect(lines.contains { ($0["dashjs_bola_placeholder_s"].flatMap(Double.init) ?? 0) > 0 })
    }
}
