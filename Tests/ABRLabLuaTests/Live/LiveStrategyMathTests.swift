import ABRLabLua
import Foundation
import Testing
import TestSupport

/// The maths of the live strategies' modules (Strategies/live/lib), run on their own in a Lua
/// engine, against cases worked by hand and against scripts/reference/dashjs_live.py, a
/// transcription of dash.js's code.
@Suite(.tags(.lua), .selectedByTags) struct LiveStrategyMathTests {
    static let packageRoot = PackageRoot.url
    static let lib = packageRoot.appendingPathComponent("Strategies/live/lib")
    /// L2A's cautiousness V_L for its horizon of 4.
    static let vl: Double = pow(4.0, 0.99)

    /// Runs `body` after loading each module of `modules` (local name → file in lib/) into a
    /// local of that name, and returns its number.
    static func evaluate(_ modules: [String: String], _ body: String) throws -> Double {
        var source = ""
        for (name, file) in modules.sorted(by: { $0.key < $1.key }) {
            let text = try String(contentsOf: lib.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("]==]"))
            source += "local \(name) = load([==[\(text)]==], \"=\(file)\")()\n"
        }
        return try LuaEngine().evaluateNumber(source + body)
    }

    // MARK: L2A-LL

    /// Sort 0.8, 0.6, −0.1; the running sums give t = (0.8 − 1)/1 = −0.2 (not ≥ 0.6), then
    /// t = (1.4 − 1)/2 = 0.2 ≥ −0.1, so the projection is (0.6, 0.4, 0).
    @Test(arguments: [(1, 0.6), (2, 0.4), (3, 0.0)])
    func projectionOntoTheSimplex(index: Int, expected: Double) throws {
        let value = try Self.evaluate(["L": "l2a_learner.lua"], "return L.project_to_simplex({0.8, 0.6, -0.1})[\(index)]")
        #expect(abs(value - expected) < 1e-15)
    }

    /// A vector already on the simplex stays where it is.
    @Test func projectionKeepsAProbabilityVector() throws {
        let sum = try Self.evaluate(["L": "l2a_learner.lua"], """
            local w = L.project_to_simplex({0.25, 0.5, 0.25})
            return math.abs(w[1] - 0.25) + math.abs(w[2] - 0.5) + math.abs(w[3] - 0.25)
            """)
        #expect(sum < 1e-15)
    }

    /// One steady step on the 200/600/1000 kbps ladder from level 2 at 1229 kbps, 0.5 s
    /// segments, rate 1. Q = V_L = 4^0.99 and α = 2·V_L, so the step is
    /// V/(2α)·(Q + V_L) = 0.5/(4·V_L)·2·V_L = 0.25 times bitrate/throughput, positive for every
    /// level (all fit 1229): w = (200/4916, 1 + 600/4916, 1000/4916). Projection subtracts
    /// t = (600 + 1000)/4916/2 = 200/1229: w = (0, 1179/1229, 50/1229). Expected bitrate
    /// 616.27 kbps is nearest level 2. Q = V_L − 0.5 + 0.5·(b·w + b·Δw)/1229
    /// = V_L − 0.5 + 0.5·(707400 + 50000 + 20000)/1229².
    @Test func oneSteadyStepByHand() throws {
        let setup = """
            local s = L.new({200, 600, 1000}, 4, 2)
            L.start_steady(s, 2)
            local level = L.step(s, 2, 1229, 0.5, 1)
            """
        let cases: [(String, Double)] = [
            ("level", 2), ("s.w[1]", 0), ("s.w[2]", 1179.0 / 1229), ("s.w[3]", 50.0 / 1229),
            ("s.q", Self.vl - 0.5 + 0.5 * 777_400 / (1229.0 * 1229)),
        ]
        for (expression, expected) in cases {
            let value = try Self.evaluate(["L": "l2a_learner.lua"], setup + "return \(expression)")
            #expect(abs(value - expected) < 1e-12, "\(expression)")
        }
    }

    /// From level 3 at 300 kbps: the step is 0.25·b/300, positive for 200 kbps and negative from
    /// 600 kbps on, so w = (1/6, −1/2, 1 − 5/6) before projection and (1/2, 0, 1/2) after
    /// (t = −1/3). The expected 600 kbps picks level 2; as 600 ≥ 300, Q is raised to
    /// react·max(V_L, Q) = 2·V_L (Q itself fell to V_L − 1/6).
    @Test(arguments: [("level", 2.0), ("s.w[1]", 0.5), ("s.w[2]", 0.0), ("s.q", 2 * vl)] as [(String, Double)])
    func aThroughputDropMovesProbabilityDown(expression: String, expected: Double) throws {
        let value = try Self.evaluate(["L": "l2a_learner.lua"], """
            local s = L.new({200, 600, 1000}, 4, 2)
            L.start_steady(s, 3)
            local level = L.step(s, 3, 300, 0.5, 1)
            return \(expression)
            """)
        #expect(abs(value - expected) < 1e-12, "\(expression)")
    }

    // MARK: dash.js throughput history

    /// Three samples when there are only three; a last drop to 0.4× widens the window to four
    /// (the whole history here); a jump up and back widens it twice: 1000, 1000, 1000, 2000,
    /// 1000 average 1200; latency is the mean of the last four.
    @Test(arguments: [
        ("{1000, 1000, 400}", "T.average_kbps(h)", 800.0),
        ("{1000, 1000, 1000, 400}", "T.average_kbps(h)", 850.0),
        ("{500, 1000, 1000, 1000, 1000}", "T.average_kbps(h)", 1000.0),
        ("{1000, 1000, 1000, 1000, 2000, 1000}", "T.average_kbps(h)", 1200.0),
        ("{1, 2, 3, 4, 5}", "T.average_latency_s(h)", 0.35),
    ] as [(String, String, Double)])
    func throughputHistory(samples: String, expression: String, expected: Double) throws {
        let value = try Self.evaluate(["T": "dashjs_throughput.lua"], """
            local h = T.new()
            for i, v in ipairs(\(samples)) do T.push(h, v, i / 10) end
            return \(expression)
            """)
        #expect(abs(value - expected) < 1e-12, "\(samples)")
    }

    /// dash.js's level for a bitrate on 200/600/1000 kbps with 0.5 s segments: 1000 kbps is
    /// level 3; a latency of 0.1 s takes a fifth of the segment, leaving 800 kbps (level 2); a
    /// latency longer than a segment gives level 1; below the ladder, level 1.
    @Test(arguments: [("1000, nil", 3.0), ("1000, 0.1", 2.0), ("1000, 0.6", 1.0), ("150, nil", 1.0)] as [(String, Double)])
    func levelForBitrate(arguments: String, expected: Double) throws {
        let level = try Self.evaluate(["T": "dashjs_throughput.lua"], "return T.level_for_bitrate({200, 600, 1000}, 0.5, \(arguments))")
        #expect(level == expected, "\(arguments)")
    }

    // MARK: LoL+

    /// QoE weights for 0.5 s segments on 200…1000 kbps: 0.5·600000 − 1000·0.1 − 200·0.05·0.5 −
    /// 200·|1 − 1.1| = 300000 − 100 − 5 − 20 = 299875; above 1.1 s the latency penalty is
    /// 1000·0.1 per second (300000 − 100 − 200 − 20).
    @Test(arguments: [(0.5, 299_875.0), (2.0, 299_680.0)] as [(Double, Double)])
    func qoeOfOneSegment(latency: Double, expected: Double) throws {
        let value = try Self.evaluate(["Q": "lolp_qoe.lua"], "return Q.single(Q.weights(0.5, 1000, 200), 600000, 0.1, \(latency), 1.1)")
        #expect(abs(value - expected) < 1e-9)
    }

    /// With no latency learned yet every latency weight scores alike, so the first (0.2) stays;
    /// the buffer weight 1 divides the rebuffering least. With a latency learned, weight 1 wins
    /// too. With no feasible level (the next buffer below 0.3 s for all), there is no vector.
    @Test(arguments: [(0.0, "w[2]", 0.2), (0.0, "w[3]", 1.0), (0.001, "w[2]", 1.0), (0.001, "w[1] + w[4]", 0.4)] as [(Double, String, Double)])
    func weightSelection(latencyState: Double, expression: String, expected: Double) throws {
        let value = try Self.evaluate(["Q": "lolp_qoe.lua", "W": "lolp_weights.lua"], """
            local neurons = {}
            for i, b in ipairs({200000, 600000, 1000000}) do
              neurons[i] = { bitrate_bps = b, state = { latency = \(latencyState) } }
            end
            local selector = W.new(1.5, 0.3, 0.5, Q, Q.weights(0.5, 1000, 200))
            local w = W.find(selector, neurons, 1.5, 1.0, 1200000, 1)
            return \(expression)
            """)
        #expect(abs(value - expected) < 1e-15)
    }

    @Test func noWeightsWithoutAFeasibleLevel() throws {
        let none = try Self.evaluate(["Q": "lolp_qoe.lua", "W": "lolp_weights.lua"], """
            local neurons = { { bitrate_bps = 1000000, state = { latency = 0 } } }
            local selector = W.new(1.5, 0.3, 0.5, Q, Q.weights(0.5, 1000, 200))
            return W.find(selector, neurons, 1.5, 0.1, 200000, 1) == nil and 1 or 0
            """)
        #expect(none == 1)
    }

    /// Rates by hand: on target 1; 1 s over target 0.5 + 1/(1 + e^−5); buffer 0.2 s short
    /// 0.5 + 1/(1 + e); within 2 % of target 1; 0.04 s over: 0.5 + 1/(1 + e^−0.2), applied from
    /// 1 (a change of 0.05 ≥ 0.02) but not from 1.04 (0.0098 < 0.02).
    static let rateCases: [(String, Double)] = {
        let e = M_E
        let over: Double = 0.5 + 1 / (1 + exp(-5.0))
        let under: Double = 0.5 + 1 / (1 + exp(2.5))
        let short: Double = 0.5 + 1 / (1 + e)
        let slightly: Double = 0.5 + 1 / (1 + exp(-0.2))
        return [
            ("R.target_rate(1.5, 1.5, 1.0, 0.5, -0.5, 0.5)", 1.0),
            ("R.target_rate(2.5, 1.5, 1.0, 0.5, -0.5, 0.5)", over),
            ("R.target_rate(1.0, 1.5, 1.0, 0.5, -0.5, 0.5)", under),
            ("R.target_rate(1.5, 1.5, 0.3, 0.5, -0.5, 0.5)", short),
            ("R.target_rate(1.52, 1.5, 1.0, 0.5, -0.5, 0.5)", 1.0),
            ("R.applied_rate(1, R.target_rate(1.54, 1.5, 1.0, 0.5, -0.5, 0.5), 0.5)", slightly),
            ("R.applied_rate(1.04, R.target_rate(1.54, 1.5, 1.0, 0.5, -0.5, 0.5), 0.5)", 1.04),
        ]
    }()

    @Test(arguments: rateCases)
    func playbackRate(expression: String, expected: Double) throws {
        let value = try Self.evaluate(["R": "lolp_rate.lua"], "return \(expression)")
        #expect(abs(value - expected) < 1e-12, "\(expression)")
    }

    /// The map starts with one neuron per level at its normalised bitrate (200/√1400000000…).
    @Test func theMapStartsAtTheNormalisedLadder() throws {
        let value = try Self.evaluate(["S": "lolp_som.lua"], """
            local som = S.new({200000, 600000, 1000000}, function() return 0.5 end)
            return som.neurons[3].state.throughput
            """)
        #expect(abs(value - 1_000_000 / (1_400_000_000_000.0).squareRoot()) < 1e-15)
    }

    /// A buffer that the current level would drain below 0.3 s steps down to the highest level
    /// the throughput carries, without consulting the map.
    @Test func aLowBufferStepsDownAtOnce() throws {
        let level = try Self.evaluate(["S": "lolp_som.lua", "W": "lolp_weights.lua", "Q": "lolp_qoe.lua"], """
            local som = S.new({200000, 600000, 1000000}, function() return 0.5 end)
            local selector = W.new(1.5, 0.3, 0.5, Q, Q.weights(0.5, 1000, 200))
            return S.next_level(som, 700000, 2.0, 0.5, 1, 3, W, selector)
            """)
        #expect(level == 2)
    }
}
