import ABRLab
import EngineFixtures
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct QoEModelTests {
    let ladder = [300, 750, 1200, 1850, 2850, 4300].map { BitrateLevel(bitrate: $0 * 1000, label: "\($0)k") }

    @Test(arguments: [
        // (kind, level, previous, rebuffer, expected)
        (QoEModel.Kind.linear, 2, Int?.none, 0.0, 1.2),
        (.linear, 2, 0, 0.0, 1.2 - 0.9),
        (.linear, 0, 5, 1.0, 0.3 - 4.3 - 4.0),
        (.log, 0, nil, 0.0, 0.0),
        (.log, 5, 0, 0.5, log(4300.0 / 300) - 2.66 * 0.5 - log(4300.0 / 300)),
        (.hd, 3, 2, 0.25, 12 - 8 * 0.25 - 9),
        (.hd, 5, nil, 0.0, 20),
    ])
    func segmentScores(kind: QoEModel.Kind, level: Int, previous: Int?, rebuffer: Double, expected: Double) {
        let score = QoEModel(kind: kind).segmentScore(level: level, previousLevel: previous, rebufferSeconds: rebuffer, ladder: ladder)
        #expect(abs(score - expected) < 1e-12)
    }

    @Test func weightsAreConfigurable() {
        let model = QoEModel(kind: .linear, rebufferPenalty: 10, smoothnessPenalty: 0)
        #expect(abs(model.segmentScore(level: 1, previousLevel: 0, rebufferSeconds: 1, ladder: ladder) - (0.75 - 10)) < 1e-12)
    }

    @Test func hdNeedsOneUtilityPerLevel() {
        #expect(throws: InputError.self) { try QoEModel.hd.validate(ladder: BitrateLevel.standardLevels) }
        #expect(throws: Never.self) { try QoEModel.hd.validate(ladder: ladder) }
    }

    @Test func sessionMetricsSumTheSegments() throws {
        let video = try Video(name: "v", segmentDurationSeconds: 1, ladder: ladder, segmentCount: 3)
        var strategy = ScriptedStrategy(levels: [0, 2, 2])
        let result = try SessionEmulator(profile: EmulatorFixtures.idealProfile()).run(
            &strategy, strategyID: "s", trace: try EmulatorFixtures.constantTrace(mbps: 100), video: video
        )
        let metrics = SessionMetrics(result: result, qoe: .linear, ladder: ladder)
        #expect(metrics.segments == 3)
        #expect(abs(metrics.qoeTotal - (0.3 + 1.2 - 0.9 + 1.2)) < 1e-12)
        #expect(metrics.switchCount == 1)
        #expect(metrics.stallCount == 0)
        #expect(abs(metrics.averageBitrateKbps - 900) < 1e-9)
    }
}
