import ABRLab
import Testing
import TestSupport

/// The Twitch challenge's NQoE on a session small enough to score by hand.
@Suite(.tags(.core), .selectedByTags) struct NQoETests {
    static let ladder = [200, 600, 1000].map { BitrateLevel(bitrate: $0 * 1000, label: "\($0)k") }

    static func segment(_ index: Int, level: Int) -> SegmentRecord {
        SegmentRecord(
            index: index, level: level, bitrateKbps: ladder[level].bitrateKbps, sizeBytes: 1, downloadStartSeconds: 0,
            downloadEndSeconds: 0, downloadTimeSeconds: 0, latencySeconds: 0, throughputKbps: 0, bufferBeforeSeconds: 0,
            bufferAfterSeconds: 0, rebufferSeconds: 0, waitSeconds: 0, bufferState: .empty, estimateKbps: 0, networkQuality: .good
        )
    }

    /// Two 0.5 s segments of two 0.25 s chunks: the first at 1000 kbps with a 0.3 s stall before
    /// its second chunk, the second at 200 kbps played at 1.2× for one chunk.
    static func session() -> SessionResult {
        var result = SessionResult(
            traceName: "hand", profileName: "live", segments: [segment(0, level: 2), segment(1, level: 0)], transitions: [],
            startupSeconds: 0, stallCount: 1, endSeconds: 2, segmentDurationSeconds: 0.5
        )
        result.liveChunkSeconds = 0.25
        result.liveChunks = [
            LiveChunkSample(segmentIndex: 0, chunkIndex: 0, sessionSeconds: 0.2, bitrateKbps: 1000, rebufferSeconds: 0, latencySeconds: 1.0, playbackRate: 1),
            LiveChunkSample(segmentIndex: 0, chunkIndex: 1, sessionSeconds: 0.7, bitrateKbps: 1000, rebufferSeconds: 0.3, latencySeconds: 1.3, playbackRate: 1),
            LiveChunkSample(segmentIndex: 1, chunkIndex: 0, sessionSeconds: 0.9, bitrateKbps: 200, rebufferSeconds: 0, latencySeconds: 1.3, playbackRate: 1.2),
            LiveChunkSample(segmentIndex: 1, chunkIndex: 1, sessionSeconds: 1.1, bitrateKbps: 200, rebufferSeconds: 0, latencySeconds: 1.1, playbackRate: 1),
        ]
        return result
    }

    @Test func handComputedSession() {
        // α = 0.25, β = 1000, σ = 200, γ = 0.005 at L ≤ 1.1 else 0.01, µ = 0.02.
        // chunk 1: 0.25·1000 − 0.005·1.0                  = 249.995
        // chunk 2: 0.25·1000 − 1000·0.3 − 0.01·1.3        = −50.013
        // chunk 3: 0.25·200 − 0.01·1.3 − 200·|1 − 1.2|    = 9.987
        // chunk 4: 0.25·200 − 0.005·1.1                   = 49.9945
        // switch 1000 → 200: 0.02·800                     = 16
        let model = QoEModel(kind: .nqoe)
        #expect(model.smoothnessPenalty == 0.02)
        let scores = model.segmentScores(Self.session(), ladder: Self.ladder)
        #expect(scores.count == 2)
        #expect(abs(scores[0] - 199.982) < 1e-9)
        #expect(abs(scores[1] - 43.9815) < 1e-9)
        let metrics = SessionMetrics(result: Self.session(), qoe: model, ladder: Self.ladder)
        #expect(abs(metrics.qoeTotal - 243.9635) < 1e-9)
        #expect(abs(metrics.liveLatencySeconds! - 1.175) < 1e-12)
        #expect(abs(metrics.playbackRateDeviation! - 0.05) < 1e-12)
    }

    @Test func switchPenaltyOfOne() {
        let model = QoEModel(kind: .nqoe, smoothnessPenalty: 1)
        let total = model.segmentScores(Self.session(), ladder: Self.ladder).reduce(0, +)
        #expect(abs(total - (243.9635 + 16 - 800)) < 1e-9)
    }
}
