import ABRLab
import ArgumentParser
import Foundation

extension Abrlab {
    struct TracesGenerate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Generate seeded synthetic bandwidth traces (a Markov-modulated model).",
            discussion: """
                The link sits in one of --states bandwidth states spaced on a log scale between --min-kbps and \
                --max-kbps, moves to a neighbouring state with --switch-probability each step, adds Gaussian \
                noise (--noise, relative), and enters zero-bandwidth outages with --outage-probability per step, \
                lasting --outage-mean-s on average. --preset picks a parameter set; options given explicitly \
                override it. Trace i of --count uses seed --seed + i, so the same command always writes the same files.

                Presets: \(TracePreset.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: "; ")).

                Example:
                  abrlab traces generate --preset 3g --count 20 --out-dir Traces/3g --seed 300
                """
        )

        @Option(help: "Parameter set to start from.")
        var preset: TracePreset?
        @Option(help: "Number of traces to write, 1 to 100000.")
        var count: Int = 1
        @Option(help: "Folder to write into (created when missing).")
        var outDir: String
        @Option(help: "File name prefix; files are PREFIX_1, PREFIX_2, ….")
        var prefix: String?
        @Option(help: "Output format: pensieve, sabre, mahimahi or csv.")
        var format: String = "csv"
        @Option(help: "First seed. (default: 1)", transform: OptionParsing.seed)
        var seed: UInt64 = 1
        @Option(name: .customLong("duration-s"), help: "Length of each trace, s (at most 86400; default 300).")
        var durationSeconds: Double?
        @Option(name: .customLong("step-s"), help: "Length of each period, s (0.001 to the duration, at most 10 million periods; default 1).")
        var stepSeconds: Double?
        @Option(name: .customLong("min-kbps"), help: "Lowest state's bandwidth (0 < min ≤ max ≤ 1e9).")
        var minKbps: Double?
        @Option(name: .customLong("max-kbps"), help: "Highest state's bandwidth.")
        var maxKbps: Double?
        @Option(name: .customLong("states"), help: "Bandwidth states, 1 to 1000.")
        var stateCount: Int?
        @Option(name: .customLong("switch-probability"), help: "Chance per step of moving to a neighbouring state, 0 to 1.")
        var switchProbability: Double?
        @Option(name: .customLong("noise"), help: "Relative Gaussian noise, 0 to 10.")
        var noise: Double?
        @Option(name: .customLong("latency-ms"), help: "Latency written into the trace, 0 to 60000 (default: none).")
        var latencyMilliseconds: Double?
        @Option(name: .customLong("latency-jitter-ms"), help: "Standard deviation of the latency, 0 to 60000.")
        var latencyJitterMilliseconds: Double?
        @Option(name: .customLong("outage-probability"), help: "Chance per step of an outage starting, 0 to 1.")
        var outageProbability: Double?
        @Option(name: .customLong("outage-mean-s"), help: "Mean outage length, s (positive, at most 10 million steps).")
        var outageMeanSeconds: Double?

        /// Most traces one command writes.
        static let maximumCount = 100_000

        func run() throws {
            try CommandFailure.guarding {
                guard count >= 1, count <= Self.maximumCount else { throw InputError(file: "--count", "must be from 1 to \(Self.maximumCount)") }
                let traceFormat = try OptionParsing.traceFormat(format, option: "--format")
                var generator = preset?.generator ?? SyntheticTraceGenerator()
                durationSeconds.map { generator.durationSeconds = $0 }
                stepSeconds.map { generator.stepSeconds = $0 }
                minKbps.map { generator.minKbps = $0 }
                maxKbps.map { generator.maxKbps = $0 }
                stateCount.map { generator.stateCount = $0 }
                switchProbability.map { generator.switchProbability = $0 }
                noise.map { generator.noise = $0 }
                latencyMilliseconds.map { generator.latencyMilliseconds = $0 }
                latencyJitterMilliseconds.map { generator.latencyJitterMilliseconds = $0 }
                outageProbability.map { generator.outageProbability = $0 }
                outageMeanSeconds.map { generator.outageMeanSeconds = $0 }
                try generator.validate()

                let stem = prefix ?? preset?.rawValue ?? "trace"
                try OptionParsing.writeTraces(count: count, format: traceFormat, folder: outDir) { index in
                    generator.seed = seed &+ UInt64(index)
                    return try generator.generate(name: "\(stem)_\(index + 1)")
                }
            }
        }
    }
}

extension TracePreset: ExpressibleByArgument {}
