import ABRLab
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// Sabre's five algorithms under `--profile sabre` against the numbers Sabre itself prints
/// (issue 11's acceptance), and against `scripts/reference/sabre_spec.py` — a transcription of
/// the spec sharing no code with abrlab — on every trace of the 3G and 4G sets.
@Suite(.tags(.lua, .datasets, .reference, .scale), .selectedByTags, .needsDatasets("sabre"))
struct SabreProfileTests {
    @Test(arguments: [
        ("bola", 2876.593494, 2.403623), ("bolae", 2911.905206, 2.435983), ("dynamic", 2905.420509, 2.433142),
        ("dynamicdash", 2909.896005, 2.446344), ("throughput", 1963.813375, 2.066702),
    ])
    func exampleNetworkMatchesSabre(algorithm: String, bitrateKbps: Double, score: Double) throws {
        let m = try SabreReference.metrics(
            algorithm: algorithm, trace: SabreReference.trace("network.json"), video: SabreReference.video("movie.json")
        )
        #expect(abs(m["time_average_played_bitrate"]! - bitrateKbps) < 1e-6)
        #expect(abs(m["time_average_score"]! - score) < 1e-6)
        #expect(m["total_rebuffer"] == 0)
    }

    @Test func replacingLeftWithBolaEMatchesSabre() throws {
        let m = try SabreReference.metrics(
            algorithm: "bolae", trace: SabreReference.trace("network.json"), video: SabreReference.video("movie.json"),
            replacement: .left
        )
        #expect(abs(m["time_average_played_bitrate"]! - 2579.899771) < 1e-6)
        #expect(abs(m["time_average_score"]! - 2.309970) < 1e-6)
    }

    @Test(arguments: [
        ("bola", 0.712788, 33.412759, 5.0, 718.537191), ("bolae", 0.770417, 28.810794, 6, 711.167675),
        ("dynamic", 0.723711, 30.860098, 5, 711.540248), ("dynamicdash", 0.759786, 28.826403, 6, 706.341531),
        ("throughput", 0.511085, 25.914323, 5, 505.176711),
    ])
    func slow3GTraceMatchesSabre(algorithm: String, score: Double, rebufferSeconds: Double, events: Double, bitrateKbps: Double) throws {
        let m = try SabreReference.metrics(
            algorithm: algorithm, trace: SabreReference.trace("mmsys18/3Glogs/report.2010-12-16_1100CET.json"),
            video: SabreReference.video("mmsys18/bbb.json")
        )
        #expect(abs(m["time_average_score"]! - score) < 1e-6)
        #expect(abs(m["total_rebuffer"]! - rebufferSeconds) < 1e-6)
        #expect(m["total_rebuffer_events"] == events)
        #expect(abs(m["time_average_played_bitrate"]! - bitrateKbps) < 1e-6)
    }

    /// The rounding residue of the final play-out counts as a stall event with no stall time.
    @Test func dynamicCountsSabresSpuriousFinalEvent() throws {
        let m = try SabreReference.metrics(
            algorithm: "dynamic", trace: SabreReference.trace("mmsys18/3Glogs/report.2010-09-13_1003CEST.json"),
            video: SabreReference.video("mmsys18/bbb.json")
        )
        #expect(abs(m["time_average_score"]! - 1.71122) < 1e-6)
        #expect(abs(m["total_rebuffer"]!) < 1e-6)
        #expect(m["total_rebuffer_events"] == 1)
    }

    @Test(arguments: [
        ("bola", 3.501592), ("bolae", 3.508554), ("dynamic", 3.504623), ("dynamicdash", 3.496761), ("throughput", 3.26877),
    ])
    func fastFourGTraceMatchesSabre(algorithm: String, score: Double) throws {
        let m = try SabreReference.metrics(
            algorithm: algorithm, trace: SabreReference.trace("mmsys18/4Glogs/report_bus_0004.json"),
            video: SabreReference.video("mmsys18/bbb4k.json")
        )
        #expect(abs(m["time_average_score"]! - score) < 1e-6)
    }

    /// After an abandonment BOLA-E lowers its placeholder to the abandoned-to level's minimum
    /// buffer, where that level and the one below tie; Sabre's utilities (one offset added last)
    /// break the tie. On tram_0008 it abandons segment 95 at level 4 for level 2, then picks
    /// level 2 for segment 96 with a 3 s buffer and a placeholder of about 10.745 s.
    @Test(arguments: [("report_tram_0008.json", 2.855851), ("report_bus_0008.json", 3.038548)])
    func bolaEAfterAnAbandonmentMatchesSabre(trace: String, score: Double) throws {
        let m = try SabreReference.metrics(
            algorithm: "bolae", trace: SabreReference.trace("mmsys18/4Glogs/" + trace), video: SabreReference.video("mmsys18/bbb4k.json")
        )
        #expect(abs(m["time_average_score"]! - score) < 1e-6)
    }

    /// Sabre's sliding-window estimator (`-ma sliding`, windows of 3) against the transcription.
    @Test(arguments: SabreReference.algorithms)
    func slidingWindowEstimatorMatchesTheSpecTranscription(algorithm: String) throws {
        let trace = "mmsys18/3Glogs/report.2010-12-16_1100CET.json"
        let out = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", SabreReference.packageRoot.appendingPathComponent("scripts/reference/sabre_spec.py").path,
            "-n", SabreReference.datasets.appendingPathComponent(trace).path,
            "-m", SabreReference.datasets.appendingPathComponent("mmsys18/bbb.json").path,
            "-a", algorithm, "-ma", "sliding", "--json",
        ]
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let expected = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var profile = EmulationProfile.sabre
        profile.estimator = .sliding(windowSegments: [3])
        var strategy = LuaStrategy(script: try SabreReference.script(algorithm))
        let result = try SessionEmulator(profile: profile).run(
            &strategy, strategyID: algorithm, trace: SabreReference.trace(trace), video: SabreReference.video("mmsys18/bbb.json")
        )
        let playback = try #require(result.playback)
        #expect(abs(playback.timeAverageScore(gammaP: 5) - (expected["time_average_score"] as? Double ?? .nan)) < 1e-6)
        #expect(playback.rebufferEvents == expected["total_rebuffer_events"] as? Int)
        #expect(abs((playback.accuracy?.meanErrorKbps ?? .nan) - (expected["estimate"] as? Double ?? .nan)) < 1e-6)
    }

    // MARK: every trace against the spec's transcription

    struct Run: Decodable, Sendable {
        let trace: String
        let set: String
        let movie: String
        let algorithm: String
        let replace: String
        let metrics: [String: Double]
    }

    /// The reference's batch over both sets, run once; `nil` without python3.
    static let referenceRuns: [Run]? = {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-sabre-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: out) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", SabreReference.packageRoot.appendingPathComponent("scripts/reference/sabre_spec.py").path, "--batch", out.path]
        var environment = ProcessInfo.processInfo.environment
        environment["ABRLAB_SABRE_DATA"] = SabreReference.datasets.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
            process.waitUntilExit()
        } catch { return nil }
        guard process.terminationStatus == 0, let data = try? Data(contentsOf: out) else { return nil }
        struct Batch: Decodable { let runs: [Run] }
        return try? JSONDecoder().decode(Batch.self, from: data).runs
    }()

    static let sets = [("3g", "mmsys18/3Glogs", "mmsys18/bbb.json"), ("4g", "mmsys18/4Glogs", "mmsys18/bbb4k.json")]
    static var grid: [(String, String)] { sets.flatMap { set in SabreReference.algorithms.map { (set.0, $0) } } }

    @Test(arguments: grid)
    func everyTraceMatchesTheSpecTranscription(set: String, algorithm: String) throws {
        let runs = try #require(Self.referenceRuns, "python3 could not run scripts/reference/sabre_spec.py")
        let (_, folder, movie) = Self.sets.first { $0.0 == set }!
        let video = try SabreReference.video(movie)
        let expected = runs.filter { $0.set == set && $0.algorithm == algorithm && $0.replace == "none" }
        #expect(expected.count == (set == "3g" ? 86 : 40))
        for run in expected {
            let trace = try SabreReference.trace("\(folder)/\(run.trace)")
            let actual = try SabreReference.metrics(algorithm: algorithm, trace: trace, video: video)
            for (name, value) in run.metrics {
                let mine = try #require(actual[name], "no metric \(name)")
                #expect(abs(mine - value) <= 1e-6, "\(set) \(run.trace) \(algorithm) \(name): \(mine) vs \(value)")
            }
        }
    }
}
