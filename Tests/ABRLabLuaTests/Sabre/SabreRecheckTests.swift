import ABRLab
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// Sabre's scripts ask to skip abandonment checks that cannot abandon (lib/bola_abandon.lua and
/// throughput.lua's recheck); checking at every step instead must give the same sessions.
@Suite(.tags(.lua, .datasets, .reference, .scale), .selectedByTags, .needsDatasets("sabre"))
struct SabreRecheckTests {
    static let cases: [(String, EmulationProfile.Replacement)] =
        SabreReference.algorithms.map { ($0, .none) } + [("bolae", .left), ("bola", .right)]

    static func play(
        _ algorithm: String, trace: NetworkTrace, video: Video, replacement: EmulationProfile.Replacement, honoursRechecks: Bool
    ) throws -> SessionResult {
        var profile = EmulationProfile.sabre
        profile.mechanics = .segmentBuffer(SegmentBufferSettings(honoursRechecks: honoursRechecks, replacement: replacement))
        var strategy = LuaStrategy(script: try SabreReference.script(algorithm))
        return try SessionEmulator(profile: profile).run(&strategy, strategyID: algorithm, trace: trace, video: video)
    }

    /// Every fourth 3G trace and every fourth 4G one.
    @Test(arguments: cases)
    func skippedChecksChangeNothing(algorithm: String, replacement: EmulationProfile.Replacement) throws {
        for (folder, movie) in [("mmsys18/3Glogs", "mmsys18/bbb.json"), ("mmsys18/4Glogs", "mmsys18/bbb4k.json")] {
            let video = try SabreReference.video(movie)
            let names = try FileManager.default.contentsOfDirectory(atPath: SabreReference.datasets.appendingPathComponent(folder).path).sorted()
            for name in names.enumerated().filter({ $0.offset % 4 == 0 }).map(\.element) {
                let trace = try SabreReference.trace("\(folder)/\(name)")
                let skipping = try Self.play(algorithm, trace: trace, video: video, replacement: replacement, honoursRechecks: true)
                let everyStep = try Self.play(algorithm, trace: trace, video: video, replacement: replacement, honoursRechecks: false)
                #expect(skipping.segments == everyStep.segments, "\(algorithm) \(replacement) \(name)")
            }
        }
    }
}
