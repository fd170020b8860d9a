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
    static let weightValues = [0.2, 0.4, 0.6, 0.8, 1]
    /// `1 / w` of each value, as the QoE's weighting divides (no value is 0, so never upstream's 10).
    static let weightReciprocals = weightValues.map { $0 == 0 ? 10 : 1 / $0 }

    let segmentDurationSeconds: Double
    let maxBitrateKbps: Double
    let minBitrateKbps: Double

    func nextBuffer(bufferSeconds: Double, downloadSeconds: Double) -> Double {
        downloadSeconds > segmentDurationSeconds ? bufferSeconds - segmentDurationSeconds : bufferSeconds + segmentDurationSeconds - downloadSeconds
    }

    func nextBuffer(bitrateBps: Double, bufferSeconds: Double, throughputBps: Double) -> Double {
        nextBuffer(bufferSeconds: bufferSeconds, downloadSeconds: bitrateBps * segmentDurationSeconds / throughputBps)
    }

    /// Whether `calculateSingleUseQoe` computes at all: where any of these is 0 or NaN it answers 0.
    var computesQoE: Bool {
        segmentDurationSeconds != 0 && !segmentDurationSeconds.isNaN && maxBitrateKbps != 0 && !maxBitrateKbps.isNaN
            && minBitrateKbps != 0 && !minBitrateKbps.isNaN
    }

    /// `calculateSingleUseQoe`'s latency term.
    func latencySum(_ latencySeconds: Double) -> Double {
        if latencySeconds <= 1.1 { return minBitrateKbps * 0.05 * latencySeconds }
        if latencySeconds <= 100_000_000 { return maxBitrateKbps * 0.1 * latencySeconds }
        return 0
    }

    /// `findWeightVector` with a fresh selector (previousLatency 0): the first best QoE whose next buffer stays ≥ 0.3 s;
    /// nil where none does (upstream's −1). Each QoE is `calculateSingleUseQoe` on a fresh QoeInfo (the bitrate in
    /// bit/s against kbit/s penalties, as upstream), `bitrateSum - 0 - rebufferSum - latencySum - speedSum` term for
    /// term; the terms the buffer weight does not change are computed once per neuron or latency weight.
    func findWeightVector(neurons: [DashJSLoLPRule.Neuron], latencySeconds: Double, bufferSeconds: Double,
                          throughputBps: Double, playbackRate: Double) -> [Double]? {
        var found = false
        var maxQoE = 0.0
        var winner = (latency: 0.0, buffer: 0.0)
        let deltaLatency = abs(latencySeconds - 0)
        let computes = computesQoE
        let speedSum = minBitrateKbps * abs(1 - playbackRate)
        let values = Self.weightValues, reciprocals = Self.weightReciprocals
        for neuron in neurons {
            let download = neuron.representation.bandwidthBps * segmentDurationSeconds / throughputBps
            let next = nextBuffer(bufferSeconds: bufferSeconds, downloadSeconds: download)
            let rebuffer = jsMax(0.00001, download - next)
            // The constraints read only the neuron: none of its vectors wins where they fail.
            let meetsConstraints = !(latencySeconds > Self.targetLatencySeconds + deltaLatency) && next >= Self.minimumBufferSeconds
            guard meetsConstraints else { continue }
            let bitrateSum = segmentDurationSeconds * neuron.representation.bandwidthBps - 0
            for l in 0..<values.count {
                let latency = computes ? latencySum(reciprocals[l] * neuron.latency) : 0
                for b in 0..<values.count {
                    let qoe = computes ? bitrateSum - maxBitrateKbps * (reciprocals[b] * rebuffer) - latency - speedSum : 0
                    if !found || qoe > maxQoE {
                        found = true
                        maxQoE = qoe
                        winner = (values[l], values[b])
                    }
                }
            }
        }
        return found ? [0.2, winner.latency, winner.buffer, 0.2] : nil
    }
}
