/// Timings of two sides taken in interleaved rounds (the order alternating from round to
/// round), so that both meet the same drift of a shared machine; medians and their ratio.
struct BenchRounds {
    private(set) var ours: [Double] = []
    private(set) var theirs: [Double] = []

    /// Runs `rounds` rounds of `measureOurs` and `measureTheirs`, ours first in odd rounds.
    init(rounds: Int, ours measureOurs: () throws -> Double, theirs measureTheirs: () throws -> Double) rethrows {
        for round in 0..<rounds {
            if round % 2 == 0 {
                ours.append(try measureOurs())
                theirs.append(try measureTheirs())
            } else {
                theirs.append(try measureTheirs())
                ours.append(try measureOurs())
            }
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var oursMedian: Double { Self.median(ours) }
    var theirsMedian: Double { Self.median(theirs) }
    /// The median of the per-round ratios ours / theirs: steadier than the ratio of medians
    /// when the machine's speed drifts between rounds.
    var medianRatio: Double { Self.median(zip(ours, theirs).map { $0 / $1 }) }

    /// `values` as `a–b` with `format`.
    static func range(_ values: [Double], _ format: String) -> String {
        String(format: format, values.min() ?? 0) + "–" + String(format: format, values.max() ?? 0)
    }
}
