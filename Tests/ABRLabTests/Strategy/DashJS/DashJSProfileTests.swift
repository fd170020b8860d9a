import ABRLab
import Foundation
import Testing

/// The `dashjs` profile's scheduler (dash.js 5.1.1's ScheduleController: 18 s / 30 s targets, 500 ms retries) and the
/// dashjs strategies, whose records read back and replay to the decisions they played.
@Suite(.tags(.core), .selectedByTags)
struct DashJSProfileTests {
    static func video(segments: Int = 40) throws -> Video {
        try Video(name: "ladder", segmentDurationSeconds: 4,
                  ladder: [300, 750, 1200, 1850, 2850, 4300].map { BitrateLevel(bitrate: $0 * 1000, label: "\($0)k") },
                  segmentCount: segments)
    }

    /// Bandwidth that falls, recovers and falls again, so BOLA, abandonment and the throughput rule all have work.
    static func trace() throws -> NetworkTrace {
        let ends = stride(from: 8.0, through: 400, by: 8).map { $0 }
        let kbps = ends.indices.map { [6000.0, 5000, 900, 400, 3000, 8000, 1500, 700][$0 % 8] }
        return try NetworkTrace(name: "waves", periodEndSeconds: ends, bandwidthBitsPerSecond: kbps.map { $0 * 1000 },
                                latencySeconds: ends.map { _ in 0.04 })
    }

    /// Keeps one level and notes the buffer at each decision.
    struct Steady: SessionStrategy {
        let level: Int
        var buffers: [Double] = []
        mutating func chooseLevel(_ context: DecisionContext) -> Int {
            if context.segmentIndex > 0 { buffers.append(context.bufferSeconds) }
            return level
        }
    }

    @Test(arguments: [(0, 18.0), (5, 30.0)])
    func requestsGoOutInWholeRetriesUnderTheTarget(level: Int, targetSeconds: Double) throws {
        var strategy = Steady(level: level)
        let fast = try NetworkTrace(name: "fast", periodEndSeconds: [600], bandwidthBitsPerSecond: [50_000_000], latencySeconds: [0.01])
        _ = try SessionEmulator(profile: .dashjs).run(&strategy, strategyID: "steady", trace: fast, video: Self.video())
        // buffer + segment < target when the request goes out, and less than one 500 ms retry below it.
        let limit = targetSeconds - 4
        #expect(strategy.buffers.allSatisfy { $0 < limit }, "\(strategy.buffers)")
        let full = strategy.buffers.filter { $0 > limit - 1 }
        #expect(full.count > 10)
        #expect(full.allSatisfy { $0 >= limit - 0.5 - 1e-9 }, "\(full)")
    }

    @Test func theProfileIsASegmentBufferUnderDashJSsScheduler() {
        let profile = EmulationProfile.dashjs
        #expect(profile.segmentBufferSettings?.player == .dashjs)
        #expect(profile.segmentBufferSettings?.replacement == EmulationProfile.Replacement.none)
        #expect(profile.maxBufferSeconds == 30)
        #expect(EmulationProfile.sabre.segmentBufferSettings?.player == .sabre)
    }

    @Test(arguments: DashJSStrategy.RuleSet.allCases)
    func recordsReplayToTheDecisionsPlayed(ruleSet: DashJSStrategy.RuleSet) throws {
        let sink = DashJSRecordSink()
        var strategy = DashJSStrategy(ruleSet: ruleSet, sink: sink)
        let result = try SessionEmulator(profile: .dashjs).run(&strategy, strategyID: ruleSet.rawValue, trace: Self.trace(), video: Self.video())
        let lines = sink.lines(session: "\(ruleSet.rawValue)@waves")
        let replayed = DashJSReplayer.replay(text: lines.joined(separator: "\n"), file: "records")
        #expect(replayed.errors == 0, "\(replayed.lines.first { $0.contains("\"error\"") } ?? "")")
        #expect(replayed.sessions == 1)
        var quality = 0
        var played: [Int] = []
        for (record, output) in zip(lines, replayed.lines) {
            let answer = try #require(Self.object(record)["abrlab"] as? [String: Any])
            let out = Self.object(output)
            #expect(answer["chosenIndex"] as? NSNumber == out["chosenIndex"] as? NSNumber, "\(record)")
            if out["kind"] as? String == "quality" {
                quality += 1
                played.append((out["chosenIndex"] as? NSNumber)?.intValue ?? -1)
            }
        }
        // One quality decision per segment after the first; a refetch after an abandonment has none.
        #expect(quality == result.segments.count - 1)
        for (segment, chosen) in zip(result.segments.dropFirst(), played) where segment.requests == 1 {
            #expect(segment.level == chosen, "segment \(segment.index)")
        }
        if ruleSet == .default { #expect(result.segments.contains { $0.requests > 1 }, "no abandonment to check") }
    }

    static func object(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }
}
