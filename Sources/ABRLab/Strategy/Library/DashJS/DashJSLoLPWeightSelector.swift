// dash.js 5.1.1's LoL+ weight selector and single-use QoE (streaming/rules/abr/lolp/LoLpWeightSelector.js:40-254,
// LoLpQoEEvaluator.js:40-195, QoeInfo.js). LoL+ is Bentaleb et al.'s low-latency rule as upstream implements it
// (the spec names no DOI). Spec section B.8.

struct DashJSLoLPWeightSelector {
    static let targetLatencySeconds = 1.5
    static let minimumBufferSeconds = 0.3
    /// Of the 5⁴ vectors over {0.2, …, 1} of (throughput, latency, buffer, switch) in _getPermutations' order, the
    /// first with each (latency, buffer) pair: (0.2, l, b, 0.2), l then b ascending. findWeightVector's QoE reads only
    /// that pair and its constraints only the neuron, so a later vector with the same pair has the same QoE, which is
    /// not greater than the best so far (nor than a NaN that came first), and never wins: these 25 decide as the 625.
    /// Kept as their (latency, buffer) pairs: a vector is built only for the winner.
    static let weightOptions: [(latency: Double, buffer: Double)] = {
        let values = [0.2, 0.4, 0.6, 0.8, 1]
        return values.flatMap { latency in values.map { buffer in (latency, buffer) } }
    }()

    let segmentDurationSeconds: Double
    let maxBitrateKbps: Double
    let minBitrateKbps: Double

    func nextBuffer(bufferSeconds: Double, downloadSeconds: Double) -> Double {
        downloadSeconds > segmentDurationSeconds ? bufferSeconds - segmentDurationSeconds : bufferSeconds + segmentDurationSeconds - downloadSeconds
    }

    func nextBuffer(bitrateBps: Double, bufferSeconds: Double, throughputBps: Double) -> Double {
        nextBuffer(bufferSeconds: bufferSeconds, downloadSeconds: bitrateBps * segmentDurationSeconds / throughputBps)
    }

    /// `calculateSingleUseQoe` on a fresh QoeInfo: the bitrate arrives in bit/s against kbit/s penalties, as upstream.
    func singleUseQoE(bitrate: Double, rebufferSeconds: Double, latencySeconds: Double, playbackRate: Double) -> Double {
        guard segmentDurationSeconds != 0, !segmentDurationSeconds.isNaN, maxBitrateKbps != 0, !maxBitrateKbps.isNaN,
              minBitrateKbps != 0, !minBitrateKbps.isNaN else { return 0 }
        let bitrateSum = segmentDurationSeconds * bitrate
        let rebufferSum = maxBitrateKbps * rebufferSeconds
        var latencySum = 0.0
        if latencySeconds <= 1.1 {
            latencySum = minBitrateKbps * 0.05 * latencySeconds
        } else if latencySeconds <= 100_000_000 {
            latencySum = maxBitrateKbps * 0.1 * latencySeconds
        }
        let speedSum = minBitrateKbps * abs(1 - playbackRate)
        return bitrateSum - 0 - rebufferSum - latencySum - speedSum
    }

    /// `findWeightVector` with a fresh selector (previousLatency 0): the first best QoE whose next buffer stays ≥ 0.3 s;
    /// nil where none does (upstream's −1).
    func findWeightVector(neurons: [DashJSLoLPRule.Neuron], latencySeconds: Double, bufferSeconds: Double,
                          throughputBps: Double, playbackRate: Double) -> [Double]? {
        var maxQoE: Double?
        var winner: (latency: Double, buffer: Double)?
        let deltaLatency = abs(latencySeconds - 0)
        for neuron in neurons {
            let download = neuron.representation.bandwidthBps * segmentDurationSeconds / throughputBps
            let next = nextBuffer(bufferSeconds: bufferSeconds, downloadSeconds: download)
            let rebuffer = jsMax(0.00001, download - next)
            // The constraints read only the neuron: none of its vectors wins where they fail.
            let meetsConstraints = !(latencySeconds > Self.targetLatencySeconds + deltaLatency) && next >= Self.minimumBufferSeconds
            guard meetsConstraints else { continue }
            for weights in Self.weightOptions {
                let weightedRebuffer = (weights.buffer == 0 ? 10 : 1 / weights.buffer) * rebuffer
                let weightedLatency = (weights.latency == 0 ? 10 : 1 / weights.latency) * neuron.latency
                let qoe = singleUseQoE(bitrate: neuron.representation.bandwidthBps, rebufferSeconds: weightedRebuffer,
                                       latencySeconds: weightedLatency, playbackRate: playbackRate)
                if maxQoE == nil || qoe > maxQoE! {
                    maxQoE = qoe
                    winner = weights
                }
            }
        }
        return winner.map { [0.2, $0.latency, $0.buffer, 0.2] }
    }
}
