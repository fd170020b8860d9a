import ABRLab
import ABRLabFormats
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
        @Option(name: .setting(.seed), help: .setting(.seed, in: "traces generate"))
        var seed: String?
        @Option(name: .setting(.durationS), help: .setting(.durationS))
        var durationSeconds: String?
        @Option(name: .setting(.stepS), help: .setting(.stepS))
        var stepSeconds: String?
        @Option(name: .setting(.minKbps), help: .setting(.minKbps))
        var minKbps: String?
        @Option(name: .setting(.maxKbps), help: .setting(.maxKbps))
        var maxKbps: String?
        @Option(name: .setting(.states), help: .setting(.states))
        var stateCount: String?
        @Option(name: .setting(.switchProbability), help: .setting(.switchProbability))
        var switchProbability: String?
        @Option(name: .setting(.noise), help: .setting(.noise))
        var noise: String?
        @Option(name: .setting(.latencyMs), help: .setting(.latencyMs))
        var latencyMilliseconds: String?
        @Option(name: .setting(.latencyJitterMs), help: .setting(.latencyJitterMs))
        var latencyJitterMilliseconds: String?
        @Option(name: .setting(.outageProbability), help: .setting(.outageProbability))
        var outageProbability: String?
        @Option(name: .setting(.outageMeanS), help: .setting(.outageMeanS))
        var outageMeanSeconds: String?

        /// Most traces one command writes.
        static let maximumCount = 100_000

        func run() throws {
            try CommandFailure.guarding {
                guard count >= 1, count <= Self.maximumCount else { throw InputError(file: "--count", "must be from 1 to \(Self.maximumCount)") }
                let traceFormat = try OptionParsing.traceFormat(format, option: "--format")
                var generator = preset?.generator ?? SyntheticTraceGenerator()
                try NumberOptions(options: [
                    (.durationS, durationSeconds, \.durationSeconds), (.stepS, stepSeconds, \.stepSeconds), (.minKbps, minKbps, \.minKbps),
                    (.maxKbps, maxKbps, \.maxKbps), (.switchProbability, switchProbability, \.switchProbability), (.noise, noise, \.noise),
                    (.latencyJitterMs, latencyJitterMilliseconds, \.latencyJitterMilliseconds),
                    (.outageProbability, outageProbability, \.outageProbability), (.outageMeanS, outageMeanSeconds, \.outageMeanSeconds),
                ]).apply(to: &generator)
                if let count = try Setting.states.value(stateCount)?.integer { generator.stateCount = count }
                if let latency = try Setting.latencyMs.value(latencyMilliseconds)?.number { generator.latencyMilliseconds = latency }
                try generator.validate()

                let firstSeed = try Setting.seed.value(seed)?.seed ?? SyntheticTraceGenerator().seed
                let stem = prefix ?? preset?.rawValue ?? "trace"
                try OptionParsing.writeTraces(count: count, format: traceFormat, folder: outDir) { index in
                    generator.seed = firstSeed &+ UInt64(index)
                    return try generator.generate(name: "\(stem)_\(index + 1)")
                }
            }
        }
    }
}

extension TracePreset: ExpressibleByArgument {}
