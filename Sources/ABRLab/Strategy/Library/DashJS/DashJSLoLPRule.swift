import Foundation

// dash.js 5.1.1's LoLPRule with its LearningAbrController, a self-organising map with one neuron per representation
// (streaming/rules/abr/lolp/LoLpRule.js:49-156, LearningAbrController.js:40-515). LoL+ is Bentaleb et al.'s rule as
// upstream implements it (the spec names no DOI). The per-segment QoE that LoLpRule logs feeds no decision and is
// not kept. Spec section B.8.

public struct DashJSLoLPRule: Sendable {
    struct Neuron: Sendable {
        var representation: DashJSRepresentation
        var throughput: Double
        var latency = 0.0
        var rebuffer = 0.0
        var switchRate = 0.0

        /// The neuron's state, (throughput, latency, rebuffer, switch rate), without an array to allocate.
        var vector: Vector { (throughput, latency, rebuffer, switchRate) }
    }

    typealias Vector = (Double, Double, Double, Double)

    private var neurons: [Neuron]?
    private var bitrateNormalization = 1.0
    private var minBitrateBps = 0.0
    private var weights: [Double]?
    private var sortedCenters: [[Double]] = []
    private var random: DashJSRandom

    public init(seed: Double) { random = DashJSRandom(seed: seed) }

    /// The rule's request, or nil where dash.js throws (no HTTP request yet) and the whole decision fails.
    public mutating func switchRequest(_ context: DashJSRulesContext) -> DashJSSwitchRequest? {
        var latency = context.currentLiveLatencySeconds
        if latency == 0 || latency.isNaN { latency = 0 }
        let safeKbps = context.safeAverageThroughputKbps
        if safeKbps.isNaN || context.bufferState == nil { return DashJSSwitchRequest() }
        if !context.allowsLoad { return DashJSSwitchRequest() }
        // `httpRequest.tresponse` on a missing request throws, and LoLpRule rethrows.
        guard context.lastHTTPRequest != nil else { return nil }
        let bandwidths = context.ladder.representations.map(\.bandwidthBps)
        let selector = DashJSLoLPWeightSelector(segmentDurationSeconds: context.current.fragmentDurationSeconds ?? .nan,
                                                maxBitrateKbps: bandwidths.reduce(-.infinity) { jsMax($0, $1) } / 1000,
                                                minBitrateKbps: bandwidths.reduce(.infinity) { jsMin($0, $1) } / 1000)
        let representation = nextQuality(context, throughputBps: safeKbps * 1000, latencySeconds: latency, selector: selector)
        return DashJSSwitchRequest(representation, priority: context.settings.loLPRule.priority)
    }

    private mutating func setUpNeurons(_ ladder: DashJSLadder) {
        guard neurons == nil else { return }
        let bitrates = ladder.representations.map(\.bandwidthBps)
        minBitrateBps = bitrates.reduce(.infinity) { jsMin($0, $1) }
        bitrateNormalization = Foundation.sqrt(bitrates.map { JSMath.square($0) }.reduce(0, +))
        neurons = ladder.representations.map { Neuron(representation: $0, throughput: $0.bandwidthBps / bitrateNormalization) }
        sortedCenters = initialCenters()
    }

    private var maxNeuronThroughput: Double {
        var maximum = 0.0
        for neuron in neurons ?? [] where neuron.throughput > maximum { maximum = neuron.throughput }
        return maximum
    }

    private mutating func nextQuality(_ context: DashJSRulesContext, throughputBps: Double, latencySeconds: Double,
                                      selector: DashJSLoLPWeightSelector) -> DashJSRepresentation {
        setUpNeurons(context.ladder)
        var throughputNormalized = throughputBps / bitrateNormalization
        if throughputNormalized > 1 { throughputNormalized = maxNeuronThroughput }
        let latencyNormalized = latencySeconds / 100
        let buffer = context.bufferLevelSeconds
        let all = neurons!
        let currentIndex = all.firstIndex { $0.representation.id == context.current.id }!
        let current = all[currentIndex]
        let download = current.representation.bandwidthBps * selector.segmentDurationSeconds / throughputBps
        let rebuffer = jsMax(0, download - buffer)
        if buffer - download < DashJSLoLPWeightSelector.minimumBufferSeconds {
            return downShift(from: current, throughputBps: throughputBps).representation
        }
        if weights == nil { weights = sortedCenters[sortedCenters.count - 1] }
        if let found = selector.findWeightVector(neurons: all, latencySeconds: latencySeconds, bufferSeconds: buffer,
                                                 throughputBps: throughputBps, playbackRate: context.playbackRate) {
            weights = found
        }
        var minDistance: Double?
        var winnerIndex = 0
        // The weights as a vector, whose throughput weight a neuron may replace without copying an array.
        let shared = weights!
        let distanceWeights: Vector = (shared[0], shared[1], shared[2], shared[3])
        for (index, neuron) in all.enumerated() {
            var throughputWeight = distanceWeights.0
            let next = selector.nextBuffer(bitrateBps: neuron.representation.bandwidthBps, bufferSeconds: buffer, throughputBps: throughputBps)
            let bufferLow = next < DashJSLoLPWeightSelector.minimumBufferSeconds
            if neuron.representation.bandwidthBps > throughputBps - 10_000 || bufferLow,
               neuron.representation.bandwidthBps != minBitrateBps {
                throughputWeight = 100
            }
            let distance = Self.distance(neuron.vector, (throughputNormalized, 0, 0, 0),
                                         (throughputWeight, distanceWeights.1, distanceWeights.2, distanceWeights.3))
            if minDistance == nil || distance < minDistance! {
                minDistance = distance
                winnerIndex = index
            }
        }
        let winner = all[winnerIndex]
        let switchRate = abs(current.representation.bandwidthBps - winner.representation.bandwidthBps) / bitrateNormalization
        updateNeurons(around: currentIndex, toward: (throughputNormalized, latencyNormalized, rebuffer, switchRate))
        updateNeurons(around: winnerIndex, toward: (throughputNormalized, 0, 0, switchRate))
        return winner.representation
    }

    /// `_getDownShiftNeuron`: the highest lower bitrate the throughput exceeds, else the current one.
    private func downShift(from current: Neuron, throughputBps: Double) -> Neuron {
        var best = 0.0
        var result = current
        for neuron in neurons! {
            let bandwidth = neuron.representation.bandwidthBps
            if bandwidth < current.representation.bandwidthBps && bandwidth > best && throughputBps > bandwidth {
                best = bandwidth
                result = neuron
            }
        }
        return result
    }

    /// Every neuron moves 1 % toward `x`, weighted by a Gaussian (σ 0.1) of its distance to the centre neuron — read
    /// live, as upstream holds it by reference, so neurons after the centre see its updated state.
    private mutating func updateNeurons(around center: Int, toward x: Vector) {
        for index in neurons!.indices {
            let distance = Self.distance(neurons![index].vector, neurons![center].vector, (1, 1, 1, 1))
            let neighbourhood = JSMath.exp(-1 * JSMath.square(distance) / (2 * JSMath.square(0.1)))
            neurons![index].throughput = neurons![index].throughput + (x.0 - neurons![index].throughput) * 0.01 * neighbourhood
            neurons![index].latency = neurons![index].latency + (x.1 - neurons![index].latency) * 0.01 * neighbourhood
            neurons![index].rebuffer = neurons![index].rebuffer + (x.2 - neurons![index].rebuffer) * 0.01 * neighbourhood
            neurons![index].switchRate = neurons![index].switchRate + (x.3 - neurons![index].switchRate) * 0.01 * neighbourhood
        }
    }

    /// `_getDistance` of four: the signed square root of the weighted squared differences, summed left to right as
    /// upstream's loop, without arrays.
    static func distance(_ a: Vector, _ b: Vector, _ w: Vector) -> Double {
        var sum = w.0 * JSMath.square(a.0 - b.0)
        sum = sum + w.1 * JSMath.square(a.1 - b.1)
        sum = sum + w.2 * JSMath.square(a.2 - b.2)
        sum = sum + w.3 * JSMath.square(a.3 - b.3)
        let sign: Double = sum < 0 ? -1 : 1
        return sign * Foundation.sqrt(abs(sum))
    }

    /// `_getInitialKmeansPlusPlusCenters` over n² random points, then ordered from the least similar centre. The
    /// points are kept as vectors rather than arrays, distances term for term as upstream's.
    private mutating func initialCenters() -> [[Double]] {
        let count = neurons!.count
        // The neurons do not move while the points are drawn.
        let maxThroughput = maxNeuronThroughput
        var data: [Vector] = []
        data.reserveCapacity(count * count)
        for _ in 0..<(count * count) {
            // Drawn in upstream's order: the throughput, then latency, rebuffer and switch rate.
            let throughput = random.next() * maxThroughput
            let latency = random.next()
            let rebuffer = random.next()
            data.append((throughput, latency, rebuffer, random.next()))
        }
        let ones: Vector = (1, 1, 1, 1)
        var centers = [data[0]]
        for _ in 1..<max(count, 1) {
            var nextPoint: Vector?
            var maxDistance: Double?
            for point in data {
                var minDistance: Double?
                for center in centers {
                    let d = Self.distance(point, center, ones)
                    if minDistance == nil || d < minDistance! { minDistance = d }
                }
                if maxDistance == nil || minDistance! > maxDistance! {
                    nextPoint = point
                    maxDistance = minDistance
                }
            }
            centers.append(nextPoint!)
        }
        var maxTotal: Double?
        var leastSimilar = 0
        for i in centers.indices {
            var total = 0.0
            for j in centers.indices where i != j { total += Self.distance(centers[i], centers[j], ones) }
            if maxTotal == nil || total > maxTotal! {
                maxTotal = total
                leastSimilar = i
            }
        }
        var sorted = [centers.remove(at: leastSimilar)]
        while !centers.isEmpty {
            var minDistance: Double?
            var minIndex = 0
            for (i, center) in centers.enumerated() {
                let d = Self.distance(sorted[0], center, ones)
                if minDistance == nil || d < minDistance! {
                    minDistance = d
                    minIndex = i
                }
            }
            sorted.append(centers.remove(at: minIndex))
        }
        return sorted.map { [$0.0, $0.1, $0.2, $0.3] }
    }
}
