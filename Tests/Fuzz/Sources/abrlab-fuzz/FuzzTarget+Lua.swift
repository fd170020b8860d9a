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
        // Replaying a reproducer with ABRLAB_FUZZ_SHOW=1 prints the script it stands for.
        if LuaSandboxRig.shows { FileHandle.standardError.write(Data((source + "\n").utf8)) }
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
    static let shows = ProcessInfo.processInfo.environment["ABRLAB_FUZZ_SHOW"] == "1"
    /// Small limits so each input ends fast: a session makes up to a few hundred calls (see
    /// `emulator`), each held to 50,000 instructions (3 MB of allocation) and, for work the
    /// instruction count cannot see, 4 ms.
    static let limits = LuaLimits(instructionsPerCall: 50_000, secondsPerCall: 0.004, memoryBytesPerEngine: 8 << 20, stringRepBytes: 1 << 20)

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

    /// Sabre's profile, so downloads run in progress steps and check_abandon is reached. The
    /// video and trace keep a download to about ten steps. A script that abandons every request
    /// decides the same segment again until the session's simulated time runs out, at least
    /// 50 ms a request: 8 s bound that to 160 rounds, so that a script whose every call grows
    /// a string stays under libFuzzer's second with the sanitizers (found with 2 minutes).
    static let emulator: SessionEmulator = {
        var profile = EmulationProfile.sabre
        profile.maxSessionSeconds = 8
        return SessionEmulator(profile: profile)
    }()

    static let video: Video = {
        let ladder = [100, 250, 500, 1000].map { BitrateLevel(bitrate: $0 * 1000, label: "\($0)k") }
        do { return try Video(name: "fuzz", segmentDurationSeconds: 1, ladder: ladder, segmentCount: 4) } catch {
            fatalError("the fuzz video is invalid: \(error)")
        }
    }()

    static let trace: NetworkTrace = {
        do throws(InputError) {
            return try NetworkTrace(name: "fuzz", periodEndSeconds: [1, 3, 6, 10], bandwidthBitsPerSecond: [2e6, 6e6, 3e6, 8e6])
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
