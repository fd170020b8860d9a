import Foundation

/// Throughput and latency estimates from download samples, as Sabre and dash.js keep them
/// (Spiteri, Nguyen, Sitaraman, MMSys 2018, doi:10.1145/3204949.3204953).
///
/// - `ewma`: exponentially weighted moving averages with one half-life per entry; throughput
///   samples weigh by their transfer time (latency excluded), latency samples by count (a
///   latency half-life is the throughput one over the segment duration, in segments). Both are
///   bias-corrected for their zero start; throughput takes the most pessimistic (lowest) average,
///   latency the highest.
/// - `sliding`: means over the last few samples per window size; lowest throughput and highest
///   latency over the windows. Sample durations are ignored.
public struct ThroughputEstimator: Sendable {
    public enum Method: Equatable, Sendable, CustomStringConvertible {
        case ewma(halfLivesSeconds: [Double])
        case sliding(windowSegments: [Int])

        /// Sabre's default: EWMA with half-lives of 3 s and 8 s.
        public static let `default` = Method.ewma(halfLivesSeconds: [3, 8])

        public var description: String {
            switch self {
            case .ewma(let halfLives): "ewma(" + halfLives.map { NumberText.plain($0) }.joined(separator: ",") + ")"
            case .sliding(let windows): "sliding(" + windows.map(String.init).joined(separator: ",") + ")"
            }
        }

        public var name: String {
            switch self {
            case .ewma: "ewma"
            case .sliding: "sliding"
            }
        }
    }

    public let method: Method
    private let halfLivesMs: [Double]
    private let latencyHalfLives: [Double]
    /// `0.5^(1 / latency half-life)`: latency samples weigh by count, so this never changes.
    private let latencyAlphas: [Double]
    private var throughputAverages: [Double]
    private var latencyAverages: [Double]
    private var weightMs = 0.0
    private var weightCount = 0.0
    private var recentThroughputs: [Double] = []
    private var recentLatencies: [Double] = []
    private static let slidingKeep = 20

    /// Throughput estimate in kbit/s (= bits per millisecond); `nil` before the first sample.
    public private(set) var throughputKbps: Double?
    /// Latency estimate in milliseconds; `nil` before the first sample.
    public private(set) var latencyMs: Double?

    public init(method: Method = .default, segmentDurationSeconds: Double) {
        self.method = method
        switch method {
        case .ewma(let halfLives):
            halfLivesMs = halfLives.map { $0 * 1000 }
            latencyHalfLives = halfLivesMs.map { $0 / (segmentDurationSeconds * 1000) }
        case .sliding:
            halfLivesMs = []
            latencyHalfLives = []
        }
        throughputAverages = Array(repeating: 0, count: halfLivesMs.count)
        latencyAverages = Array(repeating: 0, count: halfLivesMs.count)
        latencyAlphas = latencyHalfLives.map { halfPower(1 / $0) }
    }

    /// Adds one download: `transferMs` without latency, its throughput, and its latency.
    public mutating func add(transferMs: Double, throughputKbps sample: Double, latencyMs latency: Double) {
        switch method {
        case .ewma:
            for index in halfLivesMs.indices {
                let alpha = halfPower(transferMs / halfLivesMs[index])
                throughputAverages[index] = alpha * throughputAverages[index] + (1 - alpha) * sample
                let latencyAlpha = latencyAlphas[index]
                latencyAverages[index] = latencyAlpha * latencyAverages[index] + (1 - latencyAlpha) * latency
            }
            weightMs += transferMs
            weightCount += 1
            var throughput = Double.infinity
            var latencyEstimate = -Double.infinity
            for index in halfLivesMs.indices {
                let zeroFactor = 1 - halfPower(weightMs / halfLivesMs[index])
                throughput = min(throughput, throughputAverages[index] / zeroFactor)
                let latencyZeroFactor = 1 - halfPower(weightCount / latencyHalfLives[index])
                latencyEstimate = max(latencyEstimate, latencyAverages[index] / latencyZeroFactor)
            }
            throughputKbps = throughput
            latencyMs = latencyEstimate
        case .sliding(let windows):
            recentThroughputs.append(sample)
            recentLatencies.append(latency)
            if recentThroughputs.count > Self.slidingKeep {
                recentThroughputs.removeFirst()
                recentLatencies.removeFirst()
            }
            var throughput = Double.infinity
            var latencyEstimate = -Double.infinity
            for window in windows {
                let throughputs = recentThroughputs.suffix(window)
                let latencies = recentLatencies.suffix(window)
                throughput = min(throughput, throughputs.reduce(0, +) / Double(throughputs.count))
                latencyEstimate = max(latencyEstimate, latencies.reduce(0, +) / Double(latencies.count))
            }
            throughputKbps = throughput
            latencyMs = latencyEstimate
        }
    }
}
