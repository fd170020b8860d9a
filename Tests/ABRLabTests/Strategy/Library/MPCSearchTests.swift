import ABRLab
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct MPCSearchTests {
    /// Every sequence scored in lexicographic order, the last of the best rewards winning, with
    /// the reward summed as the search sums it along a path.
    static func exhaustive(
        _ search: MPCSearch, times: [[Double]], buffer start: Double, last start0: Int
    ) -> (level: Int, reward: Double) {
        let levels = search.levelsKbps.count
        var best = (level: 0, reward: -Double.greatestFiniteMagnitude)
        func walk(_ position: Int, _ first: Int, _ buffer: Double, _ rebuffer: Double, _ bitrateSum: Double, _ switches: Double, _ last: Int) {
            if position == times.count {
                let reward = bitrateSum / 1000 - search.rebufferPenalty * rebuffer - search.smoothnessPenalty * switches / 1000
                if reward >= best.reward { best = (first, reward) }
                return
            }
            for level in 0..<levels {
                let download = times[position][level]
                let stall = max(0, download - buffer)
                let kbps = search.levelsKbps
                walk(
                    position + 1, position == 0 ? level : first, max(0, buffer - download) + search.segmentSeconds,
                    rebuffer + stall, bitrateSum + kbps[level], switches + abs(kbps[level] - kbps[last]), level
                )
            }
        }
        walk(0, 0, start, 0, 0, 0, start0)
        return best
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let seed: UInt64
        let levels: Int
        let depth: Int
        let penalties: (rebuffer: Double, smoothness: Double)
        var testDescription: String { "seed \(seed), \(levels) levels, depth \(depth), penalties \(penalties)" }
    }

    static let cases = (1...24).map { seed in
        let penalties: [(Double, Double)] = [(4.3, 1), (0, 0), (20, 0.5), (1, 3)]
        return Case(seed: UInt64(seed), levels: [3, 6, 8][seed % 3], depth: 1 + seed % 4, penalties: penalties[seed % 4])
    }

    /// The pruned search picks exactly the exhaustive choice and reward, whatever the penalties.
    @Test(arguments: cases)
    func searchEqualsExhaustiveEnumeration(_ test: Case) {
        var random = SeededGenerator(seed: test.seed)
        let kbps = (0..<test.levels).map { 200 * Double($0 + 1) + Double(random.next() % 100) }
        let sizes = (0..<40).map { _ in kbps.map { Int($0 * 500 * (0.5 + random.unit())) } }
        let search = MPCSearch(
            levelsKbps: kbps, segmentSeconds: 4, rebufferPenalty: test.penalties.rebuffer, smoothnessPenalty: test.penalties.smoothness
        )
        let bandwidth = 0.05 + random.unit() * 0.5
        let buffer = random.unit() * 12
        let last = Int(random.next() % UInt64(test.levels))
        let first = Int(random.next() % 30)
        let times = (0..<test.depth).map { position in sizes[first + position].map { (Double($0) / 1_000_000) / bandwidth } }
        let outcome = search.run(
            depth: test.depth, firstSegment: first, bandwidthMBps: bandwidth, bufferSeconds: buffer, lastLevel: last
        ) { segment, level in sizes[segment][level] }
        let expected = Self.exhaustive(search, times: times, buffer: buffer, last: last)
        guard case .best(let level, let reward, _) = outcome else {
            Issue.record("an unlimited search stopped")
            return
        }
        #expect(level == expected.level)
        #expect(reward == expected.reward)
    }

    /// A node limit stops the search one node past it; a limit that covers the whole search
    /// changes nothing.
    @Test func aNodeLimitStopsOnePastIt() {
        let search = MPCSearch(levelsKbps: [300, 750, 1200, 1850], segmentSeconds: 4, rebufferPenalty: 4.3, smoothnessPenalty: 1)
        func run(_ limit: Int) -> MPCSearch.Outcome {
            search.run(depth: 5, firstSegment: 0, bandwidthMBps: 0.3, bufferSeconds: 6, lastLevel: 1, nodeLimit: limit) { segment, level in
                [150_000, 375_000, 600_000, 925_000][level] + 1000 * segment
            }
        }
        guard case .best(let level, let reward, let nodes) = run(.max) else {
            Issue.record("an unlimited search stopped")
            return
        }
        #expect(nodes > 1)
        #expect(run(nodes) == .best(level: level, reward: reward, nodes: nodes))
        #expect(run(nodes - 1) == .stopped(nodes: nodes))
        #expect(run(0) == .stopped(nodes: 1))
    }

    /// Sizes outside the video are 0, so a look-ahead past the end reads free downloads.
    @Test func segmentsOutsideTheVideoAreFree() {
        let search = MPCSearch(levelsKbps: [300, 4300], segmentSeconds: 4, rebufferPenalty: 4.3, smoothnessPenalty: 1)
        let outcome = search.run(depth: 3, firstSegment: 50, bandwidthMBps: 0.01, bufferSeconds: 0, lastLevel: 0) { _, _ in 0 }
        guard case .best(let level, let reward, _) = outcome else {
            Issue.record("an unlimited search stopped")
            return
        }
        // The top level throughout: 3 × 4.3 Mbps less one switch of 4 Mbps.
        #expect(level == 1)
        #expect(reward == 12_900.0 / 1000 - 4_000.0 / 1000)
    }
}
