import Foundation

/// The player's buffer as a list of downloaded segments whose head may be partly played, and
/// the accounting of playing it out: stalls, stall events, what was played, ramp-up and reaction.
///
/// Drain arithmetic follows Sabre's simulator (Spiteri, Nguyen, Sitaraman, MMSys 2018,
/// doi:10.1145/3204949.3204953) operation for operation, including how a rounding residue at
/// the end can count as a stall event.
struct SegmentBuffer {
    let segmentMs: Double
    let bitratesKbps: [Double]
    /// `ln(bitrate / lowest bitrate)` per level.
    let utilities: [Double]
    /// Level that ends ramp-up; `nil` uses the network's sustainable level at the time.
    let rampUpLevel: Int?

    /// Levels of the buffered segments, oldest first, from `head` on.
    private var levels: [Int] = []
    private var head = 0
    /// Milliseconds already played of the head segment.
    private(set) var playedOfHeadMs = 0.0

    private(set) var playTimeMs = 0.0
    private(set) var stallMs = 0.0
    private(set) var stallEvents = 0
    private(set) var played = PlayedTotals()
    private(set) var rampUpMs: Double?
    var reactions: ReactionTracker

    init(segmentMs: Double, bitratesKbps: [Double], rampUpLevel: Int?, maxBufferMs: Double) {
        self.segmentMs = segmentMs
        self.bitratesKbps = bitratesKbps
        utilities = bitratesKbps.map { Foundation.log($0) + (0 - Foundation.log(bitratesKbps[0])) }
        self.rampUpLevel = rampUpLevel
        reactions = ReactionTracker(maxBufferMs: maxBufferMs)
    }

    var count: Int { levels.count - head }
    var isEmpty: Bool { head == levels.count }

    /// Buffered media in milliseconds.
    var bufferedMs: Double { segmentMs * Double(count) - playedOfHeadMs }

    /// Level of the buffered segment `offset` places from the end (−1 is the newest).
    func level(fromEnd offset: Int) -> Int { levels[levels.count + offset] }

    /// Levels of the buffered segments, oldest first.
    var bufferedLevels: ArraySlice<Int> { levels[head...] }

    mutating func append(level: Int) {
        if head > 64, head * 2 > levels.count {
            levels.removeFirst(head)
            head = 0
        }
        levels.append(level)
    }

    /// Overwrites the buffered segment `offset` places from the end (−1 is the newest).
    mutating func replace(fromEnd offset: Int, level: Int) {
        levels[levels.count + offset] = level
    }

    /// Start-up: the first segment's download counts as session time but not as a stall.
    mutating func addStartup(milliseconds: Double) {
        playTimeMs += milliseconds
    }

    /// Plays `milliseconds` of session time: segments start and finish, and what the buffer
    /// cannot cover is a stall. `sustainableLevel` is the network's at this moment.
    mutating func drain(_ milliseconds: Double, sustainableLevel: Int) {
        var left = milliseconds
        if isEmpty {
            stallMs += left
            playTimeMs += left
            return
        }
        if playedOfHeadMs > 0 {
            if left + playedOfHeadMs < segmentMs {
                playedOfHeadMs += left
                playTimeMs += left
                return
            }
            left -= segmentMs - playedOfHeadMs
            playTimeMs += segmentMs - playedOfHeadMs
            head += 1
            playedOfHeadMs = 0
        }
        while left > 0, !isEmpty {
            let level = levels[head]
            startPlaying(level: level, sustainableLevel: sustainableLevel)
            if left >= segmentMs {
                head += 1
                playTimeMs += segmentMs
                left -= segmentMs
            } else {
                playedOfHeadMs = left
                playTimeMs += left
                left = 0
            }
        }
        if left > 0 {
            stallMs += left
            playTimeMs += left
            stallEvents += 1
        }
        reactions.matured(at: playTimeMs)
    }

    /// Plays out everything buffered and empties the buffer.
    mutating func playOut(sustainableLevel: Int) {
        drain(bufferedMs, sustainableLevel: sustainableLevel)
        levels.removeAll()
        head = 0
        playedOfHeadMs = 0
    }

    private mutating func startPlaying(level: Int, sustainableLevel: Int) {
        played.utility += utilities[level]
        played.bitrateKbps += bitratesKbps[level]
        if let last = played.lastLevel, level != last {
            played.bitrateChangeKbps += abs(bitratesKbps[level] - bitratesKbps[last])
            played.logBitrateChange += abs(Foundation.log(bitratesKbps[level] / bitratesKbps[last]))
        }
        played.lastLevel = level
        played.segments += 1
        if rampUpMs == nil, level >= (rampUpLevel ?? sustainableLevel) {
            rampUpMs = playTimeMs
        }
        reactions.close(upTo: level, at: playTimeMs)
    }
}

/// Sums over the segments that started playing, in play order.
struct PlayedTotals {
    var segments = 0
    var utility = 0.0
    var bitrateKbps = 0.0
    var bitrateChangeKbps = 0.0
    var logBitrateChange = 0.0
    var lastLevel: Int?
}
