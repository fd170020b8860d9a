import ABRLab
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// QoE models written in Lua: the shipped linear example equals the native model exactly, the
/// segment and session tables carry what docs/qoe.md says, and failures name file, line and segment.
@Suite(.tags(.lua), .selectedByTags) struct LuaQoEModelTests {
    static let qoeFolder = PackageRoot.file("QoE").path

    /// A video with VMAF and SSIM for every segment and level: VMAF 40 + 10 × level − segment,
    /// SSIM 0.9 + 0.01 × level.
    static func qualityVideo() throws -> Video {
        let plain = try Fixture.video()
        let vmaf = (0..<plain.segmentCount).map { segment in (0..<plain.levelCount).map { 40 + 10 * Double($0) - Double(segment) } }
        let ssim = (0..<plain.segmentCount).map { _ in (0..<plain.levelCount).map { 0.9 + 0.01 * Double($0) } }
        let sizes = (0..<plain.segmentCount).map { segment in (0..<plain.levelCount).map { plain.sizeBytes(segment: segment, level: $0) } }
        return try Video(
            name: "quality", segmentDurationSeconds: plain.segmentDurationSeconds, ladder: plain.ladder, sizesBytes: sizes,
            quality: [.vmaf: vmaf, .ssim: ssim]
        )
    }

    static func plan(video: Video, customQoE: (any SegmentQoEModel)?) throws -> ExperimentPlan {
        var generator = SyntheticTraceGenerator()
        (generator.durationSeconds, generator.minKbps, generator.maxKbps, generator.outageProbability) = (120, 200, 6000, 0.05)
        let traces = try (1...4).map { index in
            generator.seed = UInt64(index)
            return try generator.generate(name: "t\(index)")
        }
        return ExperimentPlan(
            strategies: [.bufferBased, .conservative], traces: traces, video: video, emulator: SessionEmulator(profile: .default),
            qoe: .linear, seed: 7, customQoE: customQoE
        )
    }

    @Test func theLinearExampleEqualsTheNativeModelExactly() throws {
        let model = try LuaQoEModel(path: Self.qoeFolder + "/linear.lua")
        #expect(model.title == "linear (Lua)")
        let native = try Self.plan(video: Fixture.video(segments: 40), customQoE: nil)
        let scripted = try Self.plan(video: Fixture.video(segments: 40), customQoE: model)
        #expect(scripted.qoeName == Self.qoeFolder + "/linear.lua")
        var rebuffered = false
        for index in 0..<native.sessionCount {
            let expected = native.runSession(index: index)
            let actual = scripted.runSession(index: index)
            #expect(actual.error == nil, "\(actual.error ?? "")")
            #expect(actual.segmentScores == expected.segmentScores)
            #expect(actual.metrics == expected.metrics)
            rebuffered = rebuffered || (expected.result?.rebufferSeconds ?? 0) > 0
        }
        #expect(rebuffered, "the traces exercise the rebuffering term")
    }

    @Test func theVMAFExampleScoresQualityAndNeedsIt() throws {
        let model = try LuaQoEModel(path: Self.qoeFolder + "/vmaf.lua")
        let outcome = try Self.plan(video: Self.qualityVideo(), customQoE: model).runSession(index: 0)
        let video = try Self.qualityVideo()
        let segments = try #require(outcome.result?.segments)
        var expected: [Double] = []
        for (position, segment) in segments.enumerated() {
            let vmaf = try #require(video.quality(.vmaf, segment: segment.index, level: segment.level))
            let previous = position == 0 ? nil : video.quality(.vmaf, segment: segments[position - 1].index, level: segments[position - 1].level)
            expected.append(vmaf - 100 * segment.rebufferSeconds - 1 * (previous.map { abs(vmaf - $0) } ?? 0))
        }
        #expect(outcome.segmentScores == expected)

        let plain = try Self.plan(video: Fixture.video(), customQoE: model).runSession(index: 0)
        #expect(plain.error == Self.qoeFolder + "/vmaf.lua:25: the video carries no VMAF scores; give a manifest with segment_vmaf (qoe, segment 1)")
    }

    /// Each field of `segment` and `session`, returned as the score, is what the Swift side holds.
    @Test func segmentAndSessionCarryEveryField() throws {
        let folder = try ScriptFolder()
        let video = try Self.qualityVideo()
        let plan = try Self.plan(video: video, customQoE: nil)
        let outcome = plan.runSession(index: 1)
        let result = try #require(outcome.result)
        let records = result.segments
        let fields: [(String, (Int) -> Double)] = [
            ("segment.index", { Double(records[$0].index + 1) }),
            ("segment.level", { Double(records[$0].level + 1) }),
            ("segment.previous_level or 0", { $0 == 0 ? 0 : Double(records[$0 - 1].level + 1) }),
            ("segment.size_bytes", { Double(records[$0].sizeBytes) }),
            ("segment.bitrate_kbps", { records[$0].bitrateKbps }),
            ("segment.previous_bitrate_kbps or -1", { $0 == 0 ? -1 : records[$0 - 1].bitrateKbps }),
            ("segment.duration_s", { _ in 4 }),
            ("segment.rebuffer_s", { records[$0].rebufferSeconds }),
            ("segment.download_time_s", { records[$0].downloadTimeSeconds }),
            ("segment.throughput_kbps", { records[$0].throughputKbps }),
            ("segment.buffer_before_s", { records[$0].bufferBeforeSeconds }),
            ("segment.buffer_after_s", { records[$0].bufferAfterSeconds }),
            ("segment.wait_s", { records[$0].waitSeconds }),
            ("segment.vmaf", { video.quality(.vmaf, segment: records[$0].index, level: records[$0].level)! }),
            ("segment.previous_vmaf or -1", { $0 == 0 ? -1 : video.quality(.vmaf, segment: records[$0 - 1].index, level: records[$0 - 1].level)! }),
            ("segment.ssim", { video.quality(.ssim, segment: records[$0].index, level: records[$0].level)! }),
            ("segment.previous_ssim or -1", { $0 == 0 ? -1 : video.quality(.ssim, segment: records[$0 - 1].index, level: records[$0 - 1].level)! }),
            ("session.segment_count", { _ in Double(records.count) }),
            ("session.segment_duration_s", { _ in 4 }),
            ("session.level_count", { _ in 6 }),
            ("session.levels_kbps[6] + #session.levels_kbps", { _ in 4306 }),
            ("session.startup_s", { _ in result.startupSeconds }),
            ("(session.trace == '\(result.traceName)' and session.profile == 'default') and 1 or 0", { _ in 1 }),
            ("session.seed == math.tointeger(\(Int64(bitPattern: outcome.seed))) and 1 or 0", { _ in 1 }),
            ("math.type(segment.index) == 'integer' and math.type(segment.size_bytes) == 'integer' and 1 or 0", { _ in 1 }),
        ]
        for (expression, expected) in fields {
            let path = try folder.write("field.lua", "return { qoe = function(segment, session) return \(expression) end }\n")
            let scores = try LuaQoEModel(path: path).segmentScores(result, video: video, seed: outcome.seed)
            #expect(scores == records.indices.map(expected), "\(expression)")
        }
    }

    @Test func aVideoWithoutQualityGivesNilScores() throws {
        let folder = try ScriptFolder()
        let path = try folder.write("nil.lua", "return { qoe = function(s) assert(s.vmaf == nil and s.ssim == nil and s.previous_vmaf == nil); return 1 end }\n")
        let outcome = try Self.plan(video: Fixture.video(), customQoE: LuaQoEModel(path: path)).runSession(index: 0)
        #expect(outcome.error == nil)
        #expect(outcome.segmentScores.allSatisfy { $0 == 1 })
    }

    /// Scores that draw random numbers depend on the session's seed only.
    @Test func scoresAreDeterministicPerSession() throws {
        let folder = try ScriptFolder()
        let path = try folder.write("noisy.lua", "local bias = math.random()\nreturn { qoe = function(s) return bias + math.random() end }\n")
        let plan = try Self.plan(video: Fixture.video(), customQoE: LuaQoEModel(path: path))
        let first = plan.runSession(index: 0).segmentScores
        #expect(first == plan.runSession(index: 0).segmentScores)
        #expect(first != plan.runSession(index: 2).segmentScores)
        #expect(Set(first).count == first.count)
    }

    @Test(arguments: [
        ("return { qoe = function(s) if s.index == 3 then error('too slow') end return 1 end }\n", "bad.lua:1: too slow (qoe, segment 3)"),
        ("return { qoe = function(s)\n  return s.nope.x\nend }\n", "bad.lua:2: attempt to index a nil value (field 'nope') (qoe, segment 1)"),
        ("return { qoe = function(s) return nil end }\n", "bad.lua: qoe returned nil for segment 1; it must return a finite number"),
        ("return { qoe = function(s) return 1 / 0 end }\n", "bad.lua: qoe returned inf for segment 1; it must return a finite number"),
        ("return { qoe = function(s) return io.open('x') end }\n", "bad.lua:1: attempt to index a nil value (global 'io') (qoe, segment 1)"),
        ("return { qoe = function(s) return abrlab.model('m') end }\n", "bad.lua:1: attempt to index a nil value (global 'abrlab') (qoe, segment 1)"),
        ("return { qoe = function(s)\n  while true do end\nend }\n", "bad.lua:2: qoe exceeded the budget of 10000000 instructions per call (qoe, segment 1)"),
    ])
    func runtimeFailuresNameFileLineAndSegment(source: String, expected: String) throws {
        let folder = try ScriptFolder()
        let path = try folder.write("bad.lua", source)
        let outcome = try Self.plan(video: Fixture.video(), customQoE: LuaQoEModel(path: path)).runSession(index: 0)
        #expect(outcome.error == folder.path + "/" + expected)
        #expect(outcome.metrics == nil)
    }

    /// A QoE script requires modules of its own folder like a strategy; what it names literally
    /// is known before any session, what it builds is recorded when read.
    @Test func aQoEScriptRequiresModulesOfItsFolder() throws {
        let folder = try ScriptFolder()
        try folder.write("weights.lua", "return { rebuffer = 4.3, smoothness = 1 }")
        try folder.write("utility.lua", "return function(kbps) return kbps / 1000 end")
        let path = try folder.write("model.lua", """
            local w = require("weights")
            return { qoe = function(s)
              local utility = require("util" .. "ity")
              local switch = s.previous_bitrate_kbps and math.abs(utility(s.bitrate_kbps) - utility(s.previous_bitrate_kbps)) or 0
              return utility(s.bitrate_kbps) - w.rebuffer * s.rebuffer_s - w.smoothness * switch
            end }
            """)
        let model = try LuaQoEModel(path: path)
        #expect(model.files.plannedFiles.map(\.path) == [folder.path + "/weights.lua"])
        let lua = try Self.plan(video: Fixture.video(), customQoE: model).runSession(index: 0)
        let native = try Self.plan(video: Fixture.video(), customQoE: nil).runSession(index: 0)
        #expect(lua.error == nil)
        #expect(lua.segmentScores == native.segmentScores)
        #expect(model.files.loadedFiles.map(\.path) == [folder.path + "/utility.lua", folder.path + "/weights.lua"])
    }

    @Test(arguments: [
        ("return 5\n", "bad.lua: the QoE script must return a table, not a number value"),
        ("return { }\n", "bad.lua: the QoE script defines no qoe function"),
        ("return { qoe = 3 }\n", "bad.lua: qoe must be a function, not a number value"),
        ("return { qoe = function( }\n", "bad.lua:1: <name> or '...' expected near '}'"),
        ("return { choose = function(ctx) return 1 end }\n", "bad.lua: the QoE script defines no qoe function"),
    ])
    func loadingChecksTheScriptsShape(source: String, expected: String) throws {
        let folder = try ScriptFolder()
        let path = try folder.write("bad.lua", source)
        #expect(Fixture.failure { _ = try LuaQoEModel(path: path) } == folder.path + "/" + expected)
    }
}
