import ABRLab
import ABRLabFormats
import ABRLabLua
import ABRLabResults
import ABRLabSettings
import Testing
import TestSupport

/// The table lives in the core, which sees none of the outer modules: where an entry's choices or
/// default belong to a type outside the core, the type and the table must agree, and the engine's
/// own checks are the table's.
@Suite(.tags(.compare), .selectedByTags) struct SettingBindingTests {
    @Test func choicesAreTheTypesCases() {
        #expect(Setting.traceFormat.declaration.value == .choice(TraceFormat.allCases.map(\.rawValue)))
        #expect(Setting.rankBy.declaration.value == .choice(RankMetric.allCases.map(\.rawValue)))
        #expect(Setting.segmentsFormat.declaration.value == .choice(SegmentsFormat.allCases.map(\.rawValue)))
        #expect(Setting.video.declaration.help == "Video: \(VideoLoader.specHelp).")
    }

    /// The Lua shim's limits are C's; the table's defaults are what the shim gives.
    @Test func luaDefaultsAreTheShims() {
        #expect(Setting.luaInstructions.defaultValue() == .integer(LuaLimits.default.instructionsPerCall))
        #expect(Setting.luaMemoryMb.defaultValue() == .integer(LuaLimits.default.memoryBytesPerEngine >> 20))
    }

    /// The engine refuses an out-of-range value with the table's message, as every face does.
    @Test(arguments: [
        (Setting.maxBufferS, -1.0), (.targetLatencyS, 0), (.liveDurationS, 1e300), (.warmupS, -1), (.warmupKbps, 0),
        (.catchupMinDriftS, -1), (.bandwidthMultiplier, 0),
    ])
    func theEngineChecksByTheTable(setting: Setting, value: Double) throws {
        var profile = EmulationProfile.named(setting.declaration.mechanics == .segmentBuffer ? "sabre" : "live")!
        switch setting {
        case .maxBufferS: profile.maxBufferSeconds = value
        case .bandwidthMultiplier:
            var segments = try #require(profile.segmentBufferSettings)
            segments.bandwidthMultiplier = value
            profile.mechanics = .segmentBuffer(segments)
        default:
            var live = try #require(profile.liveSettings)
            switch setting {
            case .targetLatencyS: live.targetLatencySeconds = value
            case .liveDurationS: live.durationSeconds = value
            case .warmupS: live.warmup = LiveWarmup(seconds: value)
            case .warmupKbps: live.warmup = LiveWarmup(seconds: 1, linkKbps: value)
            default: live.catchUpRule = .dashjs3(minDriftSeconds: value)
            }
            profile.mechanics = .live(live)
        }
        let error = try #require(throws: InputError.self) { try profile.validate() }
        #expect(error.description == "\(setting): \(setting.declaration.rangeMessage)")
    }

    /// The generators start from the table's defaults and refuse by its ranges.
    @Test func generatorsAreTheTables() throws {
        let video = SyntheticVideoGenerator()
        #expect(Setting.ladderKbps.defaultValue(in: "videos generate") == .numbers(video.ladderKbps))
        #expect(Setting.segments.defaultValue(in: "videos generate") == .integer(video.segmentCount))
        var noisy = video
        noisy.levelNoise = 3
        #expect(throws: InputError.self) { try noisy.validate() }
        var trace = SyntheticTraceGenerator()
        trace.stateCount = 0
        let error = try #require(throws: InputError.self) { try trace.validate() }
        #expect(error.description == "states: \(Setting.states.declaration.rangeMessage)")
    }
}
