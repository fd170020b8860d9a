import ABRLabLua
import Foundation
import Testing
import TestSupport

/// The live strategies' modules against scripts/reference/dashjs_live.py, a transcription of
/// dash.js's L2A-LL and LoL+ code (which scans all 625 weight vectors where the Lua scores 25),
/// over a few hundred decisions of varied inputs: same levels, and the same doubles bit for bit.
@Suite(.tags(.lua, .reference), .selectedByTags) struct LiveReferenceTests {
    // Expected numbers travel as hexadecimal floats (exact in Lua source); parsing decimal JSON
    // may round them differently.

    /// A deterministic scenario: inputs drawn by a 64-bit LCG.
    struct Scenario {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        mutating func pick(_ low: Double, _ high: Double, step: Double) -> Double {
            (low + (next() * (high - low) / step).rounded(.down) * step)
        }
    }

    static func lua(_ rows: [[Double]]) -> String {
        "{" + rows.map { "{" + $0.map { "\($0)" }.joined(separator: ",") + "}" }.joined(separator: ",") + "}"
    }

    static func json(_ rows: [[Double]]) -> String {
        "[" + rows.map { "[" + $0.map { "\($0)" }.joined(separator: ",") + "]" }.joined(separator: ",") + "]"
    }

    /// Runs the reference on `scenario`, JSON text whose numbers are written by Swift's
    /// shortest round-trip formatting (JSONSerialization may drop digits).
    static func reference(_ scenario: String) throws -> [String: Any]? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("scenario.json")
        try Data(scenario.utf8).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", LiveStrategyMathTests.packageRoot.appendingPathComponent("scripts/reference/dashjs_live.py").path, input.path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return try JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    @Test func l2aMatchesTheReference() throws {
        var random = Scenario()
        let steps: [[Double]] = (0..<300).map { _ in
            [random.pick(100, 1400, step: 1), 0.5, random.pick(0.7, 1.3, step: 0.05)]
        }
        let ladder = [200.0, 600, 1000]
        let output = try #require(try Self.reference("""
            {"l2a": {"bitrates_kbps": \(Self.json([ladder]).dropFirst().dropLast()), "horizon": 4, "react": 2, "start_level": 2,
                     "steps": \(Self.json(steps))}}
            """), "python3 could not run scripts/reference/dashjs_live.py")
        let expected = try #require(output["l2a"] as? [[String: Any]])
        let levels = expected.map { ($0["level"] as? Int) ?? 0 }
        let qs = expected.map { ($0["q_hex"] as? String) ?? "nil" }
        let deviation = try LiveStrategyMathTests.evaluate(["L": "l2a_learner.lua"], """
            local steps, levels, qs = \(Self.lua(steps)), \(Self.lua([levels.map(Double.init)])), {{\(qs.joined(separator: ","))}}
            local s = L.new({200, 600, 1000}, 4, 2)
            L.start_steady(s, 2)
            local last, worst = 2, 0
            for i, step in ipairs(steps) do
              last = L.step(s, last, step[1], step[2], step[3])
              if last ~= levels[1][i] then return 1e9 + i end
              worst = math.max(worst, math.abs(s.q - qs[1][i]))
            end
            return worst
            """)
        #expect(deviation == 0)
        #expect(Set(levels).count == 3, "the scenario exercises every level: \(levels)")
    }

    @Test func lolpMatchesTheReference() throws {
        var random = Scenario()
        let steps: [[Double]] = (0..<200).map { _ in
            [random.pick(150_000, 1_400_000, step: 1000), random.pick(0.8, 4, step: 0.01),
             random.pick(0.1, 2.5, step: 0.01), random.pick(0.6, 1.4, step: 0.05)]
        }
        let ladder = [200_000.0, 600_000, 1_000_000]
        let output = try #require(try Self.reference("""
            {"lolp": {"bitrates_bps": \(Self.json([ladder]).dropFirst().dropLast()), "seed": 7, "segment_duration_s": 0.5,
                      "start_level": 3, "steps": \(Self.json(steps))}}
            """), "python3 could not run scripts/reference/dashjs_live.py")
        let run = try #require(output["lolp"] as? [String: Any])
        let expected = try #require(run["steps"] as? [[String: Any]])
        let levels = expected.map { Double(($0["level"] as? Int) ?? 0) }
        let states = expected.map { "{" + (($0["states_hex"] as? [[String]]) ?? []).flatMap { $0 }.joined(separator: ",") + "}" }
        let deviation = try LiveStrategyMathTests.evaluate(
            ["S": "lolp_som.lua", "W": "lolp_weights.lua", "Q": "lolp_qoe.lua"], """
            local steps, levels, states = \(Self.lua(steps)), \(Self.lua([levels])), {\(states.joined(separator: ","))}
            local seed = 7
            local function draw() seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 end
            local som = S.new({200000, 600000, 1000000}, draw)
            local weights = Q.weights(0.5, 1000, 200)
            local level, worst = 3, 0
            for i, step in ipairs(steps) do
              local selector = W.new(1.5, 0.3, 0.5, Q, weights)
              level = S.next_level(som, step[1], step[2], step[3], step[4], level, W, selector)
              if level ~= levels[1][i] then return 1e9 + i end
              local k = 0
              for _, n in ipairs(som.neurons) do
                for _, v in ipairs({ n.state.throughput, n.state.latency, n.state.rebuffer, n.state.switch }) do
                  k = k + 1
                  worst = math.max(worst, math.abs(v - states[i][k]))
                end
              end
            end
            return worst
            """)
        #expect(deviation == 0)
        #expect(Set(levels).count == 3, "the scenario exercises every level")
    }

    @Test func lolpRateMatchesTheReference() throws {
        var random = Scenario()
        let rows: [[Double]] = (0..<300).map { _ in
            [random.pick(0.5, 4, step: 0.01), 1.5, random.pick(0, 2, step: 0.01), 0.5, -0.5, 0.5, random.pick(0.6, 1.4, step: 0.01)]
        }
        let output = try #require(try Self.reference("{\"rate\": \(Self.json(rows))}"), "python3 could not run scripts/reference/dashjs_live.py")
        let expected = try #require(output["rate"] as? [[String: Any]])
        let applied = expected.map { ($0["applied_hex"] as? String) ?? "nil" }
        let deviation = try LiveStrategyMathTests.evaluate(["R": "lolp_rate.lua"], """
            local rows, applied = \(Self.lua(rows)), {{\(applied.joined(separator: ","))}}
            local worst = 0
            for i, r in ipairs(rows) do
              local rate = R.applied_rate(r[7], R.target_rate(r[1], r[2], r[3], r[4], r[5], r[6]), r[6])
              worst = math.max(worst, math.abs(rate - applied[1][i]))
            end
            return worst
            """)
        #expect(deviation == 0)
    }
}
