import ABRLab
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct RobustMPCStrategyTests {
    /// Pensieve's flat enumeration: every 5-level combination truncated to the horizon, scored in
    /// lexicographic order, the last one with the highest reward wins (`>=`).
    static func flatChoice(context: DecisionContext, bandwidthMBps: Double, horizon: Int, offset: Int) -> Int {
        let levels = context.levelCount
        let kbps = context.ladder.map(\.bitrateKbps)
        let depth = min(horizon, context.segmentCount - context.segmentIndex)
        var best = -100_000_000.0
        var choice = 0
        var combo = Array(repeating: 0, count: 5)
        let total = levels * levels * levels * levels * levels
        for number in 0..<total {
            var rest = number
            for position in stride(from: 4, through: 0, by: -1) {
                combo[position] = rest % levels
                rest /= levels
            }
            var buffer = context.bufferSeconds
            var rebuffer = 0.0
            var bitrateSum = 0.0
            var switches = 0.0
            var last = context.lastLevel ?? 0
            for position in 0..<depth {
                let level = combo[position]
                let size = Double(context.sizeBytes(segment: context.segmentIndex + offset + position, level: level))
                let download = (size / 1_000_000) / bandwidthMBps
                if buffer < download {
                    rebuffer += download - buffer
                    buffer = 0
                } else {
                    buffer -= download
                }
                buffer += context.segmentDurationSeconds
                bitrateSum += kbps[level]
                switches += abs(kbps[level] - kbps[last])
                last = level
            }
            let reward = bitrateSum / 1000 - 4.3 * rebuffer - switches / 1000
            if reward >= best {
                best = reward
                choice = combo[0]
            }
        }
        return choice
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let seed: UInt64
        let levels: Int
        var testDescription: String { "seed \(seed), \(levels) levels" }
    }

    static let cases = (1...40).map { Case(seed: UInt64($0), levels: $0 % 3 == 0 ? 4 : 6) }

    /// The pruned search picks exactly what the flat enumeration picks, on random states, reading
    /// sizes from the segments being chosen and (the default) one segment ahead.
    @Test(arguments: cases)
    func prunedSearchEqualsFlatEnumeration(testCase: Case) throws {
        var random = SeededGenerator(seed: testCase.seed)
        var generator = SyntheticVideoGenerator()
        generator.ladderKbps = Array([300.0, 750, 1200, 1850, 2850, 4300].prefix(testCase.levels))
        generator.segmentCount = 20
        generator.seed = testCase.seed
        let video = try generator.generate(name: "v")
        var strategies = [RobustMPCStrategy(lookaheadOffset: 0), RobustMPCStrategy()]
        let segmentIndex = 1 + Int(random.next() % 18)
        var context = DecisionContext(
            segmentIndex: segmentIndex, segmentCount: 20, segmentDurationSeconds: 4, ladder: video.ladder,
            lastLevel: Int(random.next() % UInt64(testCase.levels)), bufferSeconds: random.unit() * 30,
            rebufferSeconds: 0, stallCount: 0, elapsedSeconds: 0, estimateKbps: 0, networkQuality: .fair,
            downloads: [], video: video
        )
        // Feed throughput samples so the prediction and its error discount are in play.
        var samples: [Double] = []
        for index in 0..<4 {
            let size = 200_000 + Int(random.next() % 2_000_000)
            let seconds = 0.2 + random.unit() * 6
            let record = DownloadRecord(
                segmentIndex: index, level: 0, sizeBytes: size, downloadTimeSeconds: seconds,
                throughputKbps: Double(size) * 8 / seconds / 1000, rebufferSeconds: 0, bufferSeconds: 0, waitSeconds: 0
            )
            for index in strategies.indices { strategies[index].didDownload(record, context: context) }
            samples.append(Double(size) / (seconds * 1000) / 1000)
        }
        var predictions: [Double] = []
        var errors: [Double] = []
        for (index, sample) in samples.enumerated() {
            errors.append(predictions.last.map { abs($0 - sample) / sample } ?? 0)
            let recent = samples[max(0, index - 4)...index]
            predictions.append(1 / (recent.reduce(0) { $0 + 1 / $1 } / Double(recent.count)))
        }
        let bandwidth = predictions[predictions.count - 1] / (1 + (errors.suffix(5).max() ?? 0))
        context.segmentIndex = segmentIndex
        #expect(strategies[0].chooseLevel(context) == Self.flatChoice(context: context, bandwidthMBps: bandwidth, horizon: 5, offset: 0))
        #expect(strategies[1].chooseLevel(context) == Self.flatChoice(context: context, bandwidthMBps: bandwidth, horizon: 5, offset: 1))
    }

    @Test func firstSegmentIsTheConfiguredLevel() throws {
        let video = try SyntheticVideoGenerator().generate(name: "v")
        let context = DecisionContext(
            segmentIndex: 0, segmentCount: 48, segmentDurationSeconds: 4, ladder: video.ladder, lastLevel: nil,
            bufferSeconds: 0, rebufferSeconds: 0, stallCount: 0, elapsedSeconds: 0, estimateKbps: 0,
            networkQuality: .offline, downloads: [], video: video
        )
        #expect(RobustMPCStrategy().chooseLevel(context) == 1)
        #expect(RobustMPCStrategy(firstLevel: 4).chooseLevel(context) == 4)
    }
}
