/// RobustMPC's look-ahead search, the one implementation behind ``RobustMPCStrategy`` and Lua's
/// `ctx:mpc_search`.
///
/// Over `depth` segments every level sequence is scored by Σ bitrate Mbps − `rebufferPenalty` ×
/// predicted rebuffering s − `smoothnessPenalty` × Σ |Δ bitrate Mbps| (the first switch from the
/// current level), with download time = size MB / bandwidth MB/s and the buffer growing by a
/// segment per step, uncapped; the first level of the best sequence wins, ties going to the
/// sequence that comes later in lexicographic order, as in Pensieve's flat enumeration (Mao et
/// al., SIGCOMM 2017, doi:10.1145/3098822.3098843). The search is depth-first, sharing prefixes,
/// and skips a subtree only when an optimistic bound on its reward is below the best found so
/// far, seeded with the greedy sequence's reward, so the choice is exactly the exhaustive one
/// (10 levels over 5 segments is 10⁵ sequences).
public struct MPCSearch: Sendable {
    /// Ladder bitrates, lowest first.
    public var levelsKbps: [Double]
    public var segmentSeconds: Double
    public var rebufferPenalty: Double
    public var smoothnessPenalty: Double

    public init(levelsKbps: [Double], segmentSeconds: Double, rebufferPenalty: Double, smoothnessPenalty: Double) {
        self.levelsKbps = levelsKbps
        self.segmentSeconds = segmentSeconds
        self.rebufferPenalty = rebufferPenalty
        self.smoothnessPenalty = smoothnessPenalty
    }

    /// How a search ended.
    public enum Outcome: Equatable, Sendable {
        /// The best sequence's first level (0-based) and its reward, after visiting `nodes` nodes
        /// of the search tree (leaves included). With no sequence better than the lowest reward
        /// (NaN penalties), the level is 0 and the reward the starting incumbent.
        case best(level: Int, reward: Double, nodes: Int)
        /// The search visited more than its node limit and stopped there, `nodes` being one more
        /// than the limit; it found no answer.
        case stopped(nodes: Int)
    }

    /// Searches from `bufferSeconds` and 0-based `lastLevel` over `depth` segments starting at
    /// 0-based `firstSegment`, reading sizes with `sizeBytes(segment, level)`; stops once it
    /// has visited more than `nodeLimit` nodes. `depth` is at least 1.
    public func run(
        depth: Int, firstSegment: Int, bandwidthMBps: Double, bufferSeconds: Double, lastLevel: Int,
        nodeLimit: Int = .max, sizeBytes: (_ segment: Int, _ level: Int) -> Int
    ) -> Outcome {
        let levels = levelsKbps.count
        precondition(levels > 0 && depth > 0, "a search needs a level and a segment")
        // Download times, `depth` rows of `levels`, then each step's longest download and its
        // best gain under a ceiling every level fits.
        let times = UnsafeMutablePointer<Double>.allocate(capacity: depth * levels + 2 * depth)
        let paths = UnsafeMutablePointer<Int>.allocate(capacity: 2 * depth)
        defer {
            times.deallocate()
            paths.deallocate()
        }
        for position in 0..<depth {
            for level in 0..<levels {
                let bytes = sizeBytes(firstSegment + position, level)
                times[position * levels + level] = (Double(bytes) / 1_000_000) / bandwidthMBps
            }
            paths[position] = 0
            paths[depth + position] = -1
        }
        return levelsKbps.withUnsafeBufferPointer { kbps in
            var walk = Walk(
                kbps: kbps.baseAddress!, times: times, levels: levels, depth: depth, segmentSeconds: segmentSeconds,
                rebufferPenalty: rebufferPenalty, smoothnessPenalty: smoothnessPenalty, nodeLimit: nodeLimit,
                path: paths, bestPath: paths + depth,
                longest: times + depth * levels, bestFitting: times + depth * levels + depth
            )
            walk.precomputeFittingSteps()
            if walk.prunes { walk.best = walk.greedyReward(buffer: bufferSeconds, last: lastLevel) }
            walk.explore(position: 0, buffer: bufferSeconds, rebuffer: 0, bitrateSum: 0, switches: 0, last: lastLevel)
            if walk.stopped { return .stopped(nodes: walk.nodes) }
            return .best(level: max(walk.bestPath[0], 0), reward: walk.best, nodes: walk.nodes)
        }
    }

    /// The first level (0-based) of the best sequence, searching without a node limit.
    public func firstLevel(
        depth: Int, firstSegment: Int, bandwidthMBps: Double, bufferSeconds: Double, lastLevel: Int,
        sizeBytes: (_ segment: Int, _ level: Int) -> Int
    ) -> Int {
        let outcome = run(
            depth: depth, firstSegment: firstSegment, bandwidthMBps: bandwidthMBps, bufferSeconds: bufferSeconds,
            lastLevel: lastLevel, sizeBytes: sizeBytes
        )
        guard case .best(let level, _, _) = outcome else { preconditionFailure("a search without a node limit never stops") }
        return level
    }
}

/// One search's state. Raw buffers and plain loops keep the walk, which runs once per node, close
/// to C's speed in debug builds too.
private struct Walk {
    let kbps: UnsafePointer<Double>
    /// Download seconds, `depth` rows of `levels`.
    let times: UnsafePointer<Double>
    let levels: Int
    let depth: Int
    let segmentSeconds: Double
    let rebufferPenalty: Double
    let smoothnessPenalty: Double
    let nodeLimit: Int
    let path: UnsafeMutablePointer<Int>
    let bestPath: UnsafeMutablePointer<Int>
    /// Per step: the longest download, and the step's best gain under a ceiling that every
    /// download fits (no shortfall, so the same number for any such ceiling).
    let longest: UnsafeMutablePointer<Double>
    let bestFitting: UnsafeMutablePointer<Double>
    /// The bound needs rewards that fall as penalties grow.
    var prunes: Bool { rebufferPenalty >= 0 && smoothnessPenalty >= 0 }
    var best = -Double.greatestFiniteMagnitude
    var nodes = 0
    var stopped = false

    @inline(__always)
    func reward(bitrateSum: Double, rebuffer: Double, switches: Double) -> Double {
        bitrateSum / 1000 - rebufferPenalty * rebuffer - smoothnessPenalty * switches / 1000
    }

    /// One step's bitrate less the rebuffering its download causes from `buffer`.
    @inline(__always)
    func gain(_ row: UnsafePointer<Double>, _ level: Int, buffer: Double) -> Double {
        let shortfall = row[level] - buffer
        return kbps[level] / 1000 - rebufferPenalty * (shortfall > 0 ? shortfall : 0)
    }

    /// The buffer and the rebuffering so far after a download of `download` seconds: the buffer
    /// drains (stalling once empty), then gains a segment.
    @inline(__always)
    func advance(buffer: Double, rebuffer: Double, download: Double) -> (buffer: Double, rebuffer: Double) {
        if buffer < download { return (segmentSeconds, rebuffer + (download - buffer)) }
        return (buffer - download + segmentSeconds, rebuffer)
    }

    /// Whether the current path comes after the best one in lexicographic order.
    func pathIsLater() -> Bool {
        var position = 0
        while position < depth {
            if path[position] != bestPath[position] { return path[position] > bestPath[position] }
            position += 1
        }
        return false
    }

    // Indices and counts stay far below overflow (depth ≤ 10, levels ≤ 64, nodes ≤ the node
    // limit), so the walk uses wrapping arithmetic and skips the overflow checks.
    mutating func explore(position: Int, buffer: Double, rebuffer: Double, bitrateSum: Double, switches: Double, last: Int) {
        nodes &+= 1
        if nodes > nodeLimit {
            stopped = true
            return
        }
        if position == depth {
            let value = reward(bitrateSum: bitrateSum, rebuffer: rebuffer, switches: switches)
            if value > best || (value == best && pathIsLater()) {
                best = value
                bestPath.update(from: path, count: depth)
            }
            return
        }
        if prunes, position > 0 {
            let bound = reward(bitrateSum: bitrateSum, rebuffer: rebuffer, switches: switches) + optimisticGain(from: position, buffer: buffer)
            let scale = best.magnitude > 1 ? best.magnitude : 1
            if bound < best - 1e-9 * scale { return }
        }
        let row = times + position &* levels
        // High levels first: good sequences early make the bound prune more.
        var level = levels &- 1
        while level >= 0 {
            let next = advance(buffer: buffer, rebuffer: rebuffer, download: row[level])
            path[position] = level
            explore(
                position: position &+ 1, buffer: next.buffer, rebuffer: next.rebuffer, bitrateSum: bitrateSum + kbps[level],
                switches: switches + (kbps[level] - kbps[last]).magnitude, last: level
            )
            if stopped { return }
            level &-= 1
        }
    }

    /// The reward of the myopic sequence (each step the best single-step gain), summed exactly
    /// as `explore` sums along a path. It is a real sequence, so the optimum is at least this
    /// good: as the starting incumbent it lets the bound prune from the first node without
    /// changing the choice.
    func greedyReward(buffer start: Double, last start0: Int) -> Double {
        var buffer = start
        var last = start0
        var rebuffer = 0.0
        var bitrateSum = 0.0
        var switches = 0.0
        for position in 0..<depth {
            let row = times + position * levels
            var choice = 0
            var choiceValue = -Double.greatestFiniteMagnitude
            for level in 0..<levels {
                let value = gain(row, level, buffer: buffer) - smoothnessPenalty * (kbps[level] - kbps[last]).magnitude / 1000
                if value > choiceValue {
                    choiceValue = value
                    choice = level
                }
            }
            (buffer, rebuffer) = advance(buffer: buffer, rebuffer: rebuffer, download: row[choice])
            bitrateSum += kbps[choice]
            switches += (kbps[choice] - kbps[last]).magnitude
            last = choice
        }
        return reward(bitrateSum: bitrateSum, rebuffer: rebuffer, switches: switches)
    }

    /// An upper bound on what positions `from…` can add: each step's best bitrate less the
    /// rebuffering it must cause even if the buffer grew by a whole segment at every step. A step
    /// whose every download fits under the ceiling takes its precomputed value, bit for bit the
    /// number the scan would give: the bound is most of the search's time.
    @inline(__always)
    func optimisticGain(from position: Int, buffer: Double) -> Double {
        var total = 0.0
        var ceiling = buffer
        var step = position
        while step < depth {
            total += ceiling >= longest[step] ? bestFitting[step] : stepBest(step, ceiling: ceiling)
            ceiling += segmentSeconds
            step &+= 1
        }
        return total
    }

    /// Step `step`'s best bitrate less the rebuffering its download causes under `ceiling`.
    @inline(__always)
    func stepBest(_ step: Int, ceiling: Double) -> Double {
        let row = times + step &* levels
        var best = -Double.greatestFiniteMagnitude
        var level = 0
        while level < levels {
            // gain(row, level, buffer: ceiling), written out: this loop is the search's hot spot.
            let shortfall = row[level] - ceiling
            let value = kbps[level] / 1000 - rebufferPenalty * (shortfall > 0 ? shortfall : 0)
            if value > best { best = value }
            level &+= 1
        }
        return best
    }

    /// Fills `longest` and `bestFitting`: a ceiling of the longest download leaves every
    /// shortfall at most 0, as any larger one does.
    func precomputeFittingSteps() {
        for step in 0..<depth {
            let row = times + step * levels
            var most = -Double.greatestFiniteMagnitude
            for level in 0..<levels where row[level] > most { most = row[level] }
            longest[step] = most
            bestFitting[step] = stepBest(step, ceiling: most)
        }
    }
}
