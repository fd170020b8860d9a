import ABRLab
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct SyntheticTraceGeneratorTests {
    /// A generator with `seed` and the given edits applied to the defaults.
    static func generator(seed: UInt64 = 1, _ edit: (inout SyntheticTraceGenerator) -> Void = { _ in }) -> SyntheticTraceGenerator {
        var generator = SyntheticTraceGenerator()
        generator.seed = seed
        edit(&generator)
        return generator
    }

    @Test func sameSeedGivesTheSameTrace() throws {
        let edit: (inout SyntheticTraceGenerator) -> Void = {
            $0.outageProbability = 0.05
            $0.latencyMilliseconds = 60
            $0.latencyJitterMilliseconds = 10
        }
        let first = try Self.generator(seed: 42, edit).generate(name: "a")
        let second = try Self.generator(seed: 42, edit).generate(name: "a")
        #expect(first == second)
    }

    @Test func differentSeedsGiveDifferentBandwidths() throws {
        let traces = try (1...5).map { try Self.generator(seed: UInt64($0)).generate(name: "t").bandwidthBitsPerSecond }
        #expect(Set(traces).count == 5)
    }

    @Test func theNameIsKept() throws {
        #expect(try Self.generator().generate(name: "synthetic-7").name == "synthetic-7")
    }

    @Test(arguments: [
        (duration: 10.0, step: 1.0, ends: [1.0, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
        (duration: 10.0, step: 2.5, ends: [2.5, 5, 7.5, 10]),
        (duration: 1.0, step: 0.1, ends: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]),
        (duration: 3.0, step: 3.0, ends: [3.0]),
    ])
    func periodsFollowDurationAndStep(duration: Double, step: Double, ends: [Double]) throws {
        let trace = try Self.generator {
            $0.durationSeconds = duration
            $0.stepSeconds = step
        }.generate(name: "t")
        // Ends are rounded to the millisecond, so 0.1-second steps do not accumulate error.
        #expect(trace.periodEndSeconds == ends)
        #expect(trace.durationSeconds == duration)
    }

    @Test(arguments: [(duration: 10.0, step: 3.0), (duration: 10.0, step: 4.0), (duration: 7.0, step: 2.0)])
    func stepsThatDoNotDivideTheDurationEndExactly(duration: Double, step: Double) throws {
        let trace = try Self.generator {
            $0.durationSeconds = duration
            $0.stepSeconds = step
        }.generate(name: "t")
        // Whole steps, the last one cut short to end at the duration.
        #expect(trace.periodCount == Int((duration / step).rounded(.up)))
        #expect(trace.periods.dropLast().allSatisfy { $0.durationSeconds == step })
        #expect(trace.periods.last?.durationSeconds == duration - step * Double(trace.periodCount - 1))
        #expect(trace.durationSeconds == duration)
    }

    @Test(arguments: [UInt64(1), 2, 3, 99])
    func bandwidthStaysAboveTheFloorAndBelowTheNoiseBound(seed: UInt64) throws {
        let generator = Self.generator(seed: seed) {
            $0.durationSeconds = 2000
            $0.minKbps = 400
            $0.maxKbps = 6000
            $0.noise = 2
        }
        let kbps = try generator.generate(name: "t").periods.map(\.bandwidthKbps)
        // The floor is a tenth of the lowest state; Box–Muller on a 53-bit uniform never goes
        // past 8.58 standard deviations, which bounds the top.
        #expect(kbps.allSatisfy { $0 >= 40 })
        #expect(kbps.allSatisfy { $0 <= (6000 * (1 + 2 * 8.58)).rounded() })
        #expect(kbps.contains(40), "noise 2 should push some periods onto the floor")
        #expect(!kbps.contains(0))
    }

    @Test func withoutNoiseEveryPeriodSitsOnAStateAndMovesOneStateAtATime() throws {
        let generator = Self.generator(seed: 5) {
            $0.durationSeconds = 3000
            $0.minKbps = 500
            $0.maxKbps = 8000
            $0.stateCount = 5
            $0.switchProbability = 0.3
            $0.noise = 0
        }
        let states = [500.0, 1000, 2000, 4000, 8000]
        let kbps = try generator.generate(name: "t").periods.map(\.bandwidthKbps)
        let indices = kbps.compactMap { states.firstIndex(of: $0) }
        #expect(indices.count == kbps.count)
        #expect(zip(indices, indices.dropFirst()).allSatisfy { abs($0 - $1) <= 1 })
        #expect(Set(indices).count == 5, "3000 steps at p = 0.3 should visit every state")
    }

    @Test func withoutSwitchesOrNoiseTheBandwidthIsConstant() throws {
        let trace = try Self.generator(seed: 11) {
            $0.switchProbability = 0
            $0.noise = 0
        }.generate(name: "t")
        #expect(Set(trace.bandwidthBitsPerSecond).count == 1)
    }

    @Test func oneStateSitsAtTheMaximum() throws {
        let trace = try Self.generator {
            $0.stateCount = 1
            $0.noise = 0
            $0.maxKbps = 3000
        }.generate(name: "t")
        #expect(Set(trace.bandwidthBitsPerSecond) == [3_000_000])
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func noOutagesMeansNoZeroPeriods(seed: UInt64) throws {
        let trace = try Self.generator(seed: seed) {
            $0.durationSeconds = 5000
            $0.outageProbability = 0
            $0.noise = 3
        }.generate(name: "t")
        #expect(!trace.bandwidthBitsPerSecond.contains(0))
    }

    @Test func certainOutagesZeroEveryPeriod() throws {
        let trace = try Self.generator { $0.outageProbability = 1 }.generate(name: "t")
        // A new outage starts on every step where none is running, so nothing is ever delivered.
        #expect(trace.bandwidthBitsPerSecond.allSatisfy { $0 == 0 })
        #expect(!trace.deliversData)
    }

    @Test func outagesLastAboutTheirMeanLength() throws {
        let trace = try Self.generator(seed: 3) {
            $0.durationSeconds = 20000
            $0.outageProbability = 0.02
            $0.outageMeanSeconds = 4
        }.generate(name: "t")
        var runs: [Int] = []
        var current = 0
        for bandwidth in trace.bandwidthBitsPerSecond {
            if bandwidth == 0 { current += 1 } else if current > 0 { runs.append(current); current = 0 }
        }
        let meanRun = Double(runs.reduce(0, +)) / Double(runs.count)
        // Back-to-back outages merge into one run, so the observed mean sits a little above 4.
        #expect(runs.count > 50)
        #expect(meanRun > 3 && meanRun < 6)
    }

    @Test func latencyIsWrittenOnlyWhenAskedFor() throws {
        #expect(try Self.generator().generate(name: "t").latencySeconds == nil)

        let fixed = try Self.generator { $0.latencyMilliseconds = 40 }.generate(name: "t")
        #expect(fixed.latencySeconds == Array(repeating: 0.04, count: fixed.periodCount))

        let jittered = try Self.generator {
            $0.latencyMilliseconds = 20
            $0.latencyJitterMilliseconds = 50
        }.generate(name: "t")
        let latencies = try #require(jittered.latencySeconds)
        #expect(latencies.count == jittered.periodCount)
        // Jitter larger than the mean is clipped at zero, never negative.
        #expect(latencies.allSatisfy { $0 >= 0 })
        #expect(latencies.contains(0))
        #expect(Set(latencies).count > 10)
    }

    @Test func statesAreLogSpacedBetweenTheBounds() throws {
        let generator = Self.generator {
            $0.minKbps = 500
            $0.maxKbps = 8000
            $0.stateCount = 5
        }
        let states = generator.stateKbps
        let expected = [500.0, 1000, 2000, 4000, 8000]
        #expect(states.count == 5)
        for (state, value) in zip(states, expected) {
            #expect(abs(state - value) <= 1e-9 * value)
        }
        #expect(states.first == 500)
    }

    @Test func theTopStateIsExactlyTheMaximum() {
        let states = Self.generator {
            $0.minKbps = 500
            $0.maxKbps = 8000
            $0.stateCount = 5
        }.stateKbps
        #expect(states.last == 8000)
    }

    @Test(arguments: [(min: 300.0, max: 4300.0, count: 6), (min: 100, max: 100_000, count: 17), (min: 1, max: 7, count: 2)])
    func stateEndpointsAreTheBounds(min: Double, max: Double, count: Int) throws {
        let states = Self.generator {
            $0.minKbps = min
            $0.maxKbps = max
            $0.stateCount = count
        }.stateKbps
        #expect(states.count == count)
        #expect(states.first == min)
        #expect(abs((states.last ?? 0) - max) <= 1e-12 * max)
        let ratios = zip(states, states.dropFirst()).map { $1 / $0 }
        #expect(ratios.allSatisfy { abs($0 - ratios[0]) <= 1e-12 })
    }

    @Test func oneStateIsTheMaximum() {
        #expect(Self.generator { $0.stateCount = 1 }.stateKbps == [8000])
    }

    @Test func defaultsAreValid() throws {
        try SyntheticTraceGenerator().validate()
    }

    static let invalid: [(option: String, edit: @Sendable (inout SyntheticTraceGenerator) -> Void)] = [
        ("duration_s", { $0.durationSeconds = 0 }),
        ("duration_s", { $0.durationSeconds = .infinity }),
        ("duration_s", { $0.durationSeconds = .nan }),
        ("step_s", { $0.stepSeconds = 0 }),
        ("step_s", { $0.stepSeconds = 301 }),
        ("step_s", { $0.stepSeconds = .nan }),
        ("min_kbps", { $0.minKbps = 0 }),
        ("min_kbps/max_kbps", { $0.maxKbps = 100 }),
        ("max_kbps", { $0.maxKbps = .infinity }),
        ("states", { $0.stateCount = 0 }),
        ("states", { $0.stateCount = 1001 }),
        ("switch_probability", { $0.switchProbability = -0.1 }),
        ("switch_probability", { $0.switchProbability = 1.5 }),
        ("noise", { $0.noise = -1 }),
        ("noise", { $0.noise = 10.5 }),
        ("latency_ms", { $0.latencyMilliseconds = -5 }),
        ("latency_ms", { $0.latencyMilliseconds = .infinity }),
        ("latency_jitter_ms", { $0.latencyJitterMilliseconds = -1 }),
        ("outage_probability", { $0.outageProbability = 2 }),
        ("outage_mean_s", { $0.outageMeanSeconds = 0 }),
        // Longer than a day, finer than the millisecond the ends are written to, faster than
        // 1 Tbit/s, a latency of more than a minute: refused before anything is generated.
        ("duration_s", { $0.durationSeconds = 86_401 }),
        ("step_s", { $0.stepSeconds = 0.0004 }),
        ("min_kbps/max_kbps", { $0.maxKbps = 2e9 }),
        ("latency_ms", { $0.latencyMilliseconds = 60_001 }),
        ("latency_jitter_ms", { $0.latencyJitterMilliseconds = .infinity }),
        ("latency_jitter_ms", { $0.latencyJitterMilliseconds = .nan }),
        // An outage's length is drawn a step at a time: 1e308 s never finished drawing.
        ("outage_mean_s", { $0.outageMeanSeconds = 1e308 }),
        ("outage_mean_s", { $0.outageMeanSeconds = .nan }),
    ]

    @Test func validationRejectsMorePeriodsThanCanBeCounted() {
        // 1e20 one-second periods would overflow Int when counted.
        let generator = Self.generator { $0.durationSeconds = 1e20 }
        #expect(throws: InputError.self) { try generator.validate() }
    }

    @Test(arguments: invalid.indices)
    func validationNamesTheBadOption(index: Int) {
        let (option, edit) = Self.invalid[index]
        let generator = Self.generator(edit)
        let error = #expect(throws: InputError.self) { try generator.validate() }
        #expect(error?.file == option)
        #expect(error?.line == nil)
        // Generating validates first.
        #expect(throws: InputError.self) { try generator.generate(name: "t") }
    }
}
