import ABRLab
@testable import ABRLabLua
import Foundation

extension FuzzTarget {
    /// A generated hostile script runs one session under the sandbox, then a reference strategy
    /// runs in the same engine. Properties: the host survives (libFuzzer sees any crash or leak),
    /// no call outlives the time backstop by much (libFuzzer's timeout sees hangs), the hostile
    /// session's error is one line naming the script, and the reference's session is exactly
    /// what it is in a fresh process.
    static let luaSandbox = FuzzTarget(name: "lua-sandbox") { bytes in
        let expected = LuaSandboxRig.referenceFingerprint
        var generator = LuaScriptGenerator(bytes)
        let source = generator.script()
        let hostile: LuaScript
        do throws(InputError) {
            hostile = try LuaScript(path: LuaSandboxRig.hostilePath, bytes: Array(source.utf8), limits: LuaSandboxRig.limits, verbose: false)
        } catch {
            FuzzCheck.rejection(error, file: LuaSandboxRig.hostilePath)
            return
        }
        let outcome = LuaSandboxRig.plan(with: hostile).runSession(index: 0)
        if let message = outcome.error {
            FuzzCheck.expect(!message.contains(where: \.isNewline), "the error spans several lines: \(message)")
        }
        let reference = LuaSandboxRig.plan(with: hostile).runSession(index: 1)
        FuzzCheck.expect(LuaSandboxRig.Fingerprint(reference) == expected,
                         "the reference strategy's session changed after the hostile one: \(reference.error ?? "different results")")
    }
}

/// The fixed parts of the Lua sandbox target: limits, video, trace and the reference strategy.
enum LuaSandboxRig {
    static let hostilePath = "hostile.lua"
    /// Small limits so each input ends fast; the time backstop keeps every call far below
    /// libFuzzer's 1 s timeout even for work the instruction count cannot see.
    static let limits = LuaLimits(instructionsPerCall: 200_000, secondsPerCall: 0.02, memoryBytesPerEngine: 8 << 20, stringRepBytes: 1 << 20)

    /// Uses the string methods, `pairs`, `table` and `math.random` a poisoned engine would change.
    static let referenceSource = """
        local M = { name = "reference" }
        local seen = {}
        function M.setup(session) seen = { session.trace, ("x"):rep(3), tostring(#session.levels_kbps) } end
        function M.choose(ctx)
          local keys = {}
          for k in pairs({ b = 1, a = 2, [3] = 3 }) do keys[#keys + 1] = tostring(k) end
          local tag = table.concat(keys, ",") .. string.format("%d", ctx.segment_index) .. ("ab"):upper()
          local jitter = math.random(1, 2) - 1
          if ctx.buffer_s < 4 or #tag == 0 then return 1 end
          return math.min(ctx.level_count, 1 + jitter + math.floor(ctx.buffer_s / 4))
        end
        return M
        """

    static let reference: LuaScript = {
        do throws(InputError) {
            return try LuaScript(path: "reference.lua", bytes: Array(referenceSource.utf8), limits: limits, verbose: false)
        } catch {
            fatalError("the reference script does not load: \(error)")
        }
    }()

    /// Sabre's profile, so downloads run in progress steps and check_abandon is reached. A
    /// script that abandons every request decides the same segment again until the session's
    /// simulated time runs out; 2 minutes keep that under a second with the sanitizers.
    static let emulator: SessionEmulator = {
        var profile = EmulationProfile.sabre
        profile.maxSessionSeconds = 120
        return SessionEmulator(profile: profile)
    }()

    static let video: Video = {
        let ladder = [300, 750, 1200, 2850].map { BitrateLevel(bitrate: $0 * 1000, label: "\($0)k") }
        do { return try Video(name: "fuzz", segmentDurationSeconds: 4, ladder: ladder, segmentCount: 6) } catch {
            fatalError("the fuzz video is invalid: \(error)")
        }
    }()

    static let trace: NetworkTrace = {
        do throws(InputError) {
            return try NetworkTrace(name: "fuzz", periodEndSeconds: [1, 3, 6, 10], bandwidthBitsPerSecond: [4e5, 3e6, 1e6, 8e6])
        } catch {
            fatalError("the fuzz trace is invalid: \(error)")
        }
    }()

    static func plan(with hostile: LuaScript) -> ExperimentPlan {
        ExperimentPlan(
            strategies: [hostile.descriptor(), reference.descriptor()], traces: [trace], video: video,
            emulator: LuaSandboxRig.emulator, qoe: .linear, seed: 7
        )
    }

    /// What must not change: the reference's levels, timings and error.
    struct Fingerprint: Equatable {
        let segments: [SegmentRecord]
        let error: String?

        init(_ outcome: SessionOutcome) {
            segments = outcome.result?.segments ?? []
            error = outcome.error
        }
    }

    /// The reference's session in a fresh engine: the target reads it before the first hostile script runs.
    static let referenceFingerprint: Fingerprint = {
        let outcome = ExperimentPlan(
            strategies: [reference.descriptor()], traces: [trace], video: video, emulator: LuaSandboxRig.emulator, qoe: .linear, seed: 7
        ).runSession(index: 0)
        guard outcome.error == nil else { fatalError("the reference session fails: \(outcome.error ?? "")") }
        return Fingerprint(outcome)
    }()
}
