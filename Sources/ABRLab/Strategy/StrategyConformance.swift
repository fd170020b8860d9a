/// The checks every strategy, native or scripted, must pass: its choices stay in range, the same
/// seed gives the same session, and a trace that delivers nothing ends in a clear error rather
/// than a hang. Sessions run over small generated traces under every profile that calls a hook
/// the others do not (`sabre`: the abandonment check, which must answer a lower level and let
/// every segment finish, and waits; `live`: choices behind a live edge, with a playback rate),
/// so a check takes milliseconds.
public struct StrategyConformance: Sendable {
    public struct Finding: Equatable, Sendable, CustomStringConvertible {
        public let check: String
        public let trace: String
        public let message: String
        public var description: String { "\(check) on \(trace): \(message)" }
    }

    public struct Report: Sendable {
        public let strategyID: String
        /// Sessions run, by trace, with their levels (0-based).
        public let levelsByTrace: [(trace: String, levels: [Int])]
        public let findings: [Finding]
        public var passed: Bool { findings.isEmpty }
    }

    public var video: Video
    public var traces: [NetworkTrace]
    /// The `default` profile's emulator; the dead-link checks use it.
    public var emulator: SessionEmulator
    /// Profiles the session checks run under besides the emulator's.
    public var otherProfiles: [EmulationProfile] = [.sabre, .live]

    /// Three generated traces (steady, variable with outages, slow), a generated 6-level video of
    /// 20 segments, and a short session time limit for the dead-link check.
    public init() throws(InputError) {
        var videoGenerator = SyntheticVideoGenerator()
        videoGenerator.segmentCount = 20
        video = try videoGenerator.generate(name: "conformance")
        var steady = SyntheticTraceGenerator()
        (steady.durationSeconds, steady.minKbps, steady.maxKbps, steady.stateCount, steady.noise) = (120, 3000, 3000, 1, 0.05)
        var variable = SyntheticTraceGenerator()
        (variable.durationSeconds, variable.minKbps, variable.maxKbps, variable.switchProbability) = (120, 200, 8000, 0.3)
        (variable.noise, variable.outageProbability, variable.latencyMilliseconds) = (0.3, 0.05, 60)
        var slow = SyntheticTraceGenerator()
        (slow.durationSeconds, slow.minKbps, slow.maxKbps, slow.stateCount) = (60, 150, 400, 3)
        traces = [
            try steady.generate(name: "steady"), try variable.generate(name: "variable"), try slow.generate(name: "slow"),
        ]
        emulator = SessionEmulator(profile: .default)
    }

    public func check(_ descriptor: StrategyDescriptor, seed: UInt64 = 1) -> Report {
        var findings: [Finding] = []
        var levels: [(String, [Int])] = []
        let emulators = [emulator] + otherProfiles.map { profile in
            var other = emulator
            other.profile = profile
            return other
        }
        for emulator in emulators {
            for trace in traces {
                // Traces under other profiles are named with the profile: `steady (sabre)`.
                let name = emulator.profile.name == self.emulator.profile.name ? trace.name : "\(trace.name) (\(emulator.profile.name))"
                let sessionSeed = SessionSeed.derive(seed: seed, strategyID: descriptor.id, traceName: trace.name)
                do {
                    let first = try emulator.run(strategy: try descriptor.makeStrategy(), strategyID: descriptor.id, trace: trace, video: video, seed: sessionSeed)
                    let second = try emulator.run(strategy: try descriptor.makeStrategy(), strategyID: descriptor.id, trace: trace, video: video, seed: sessionSeed)
                    levels.append((name, first.segments.map(\.level)))
                    if first.segments != second.segments {
                        findings.append(Finding(check: "same seed, same session", trace: name, message: "two runs with seed \(sessionSeed) differ"))
                    }
                    if let bad = first.segments.first(where: { !(0..<video.levelCount).contains($0.level) }) {
                        findings.append(Finding(check: "levels in range", trace: name, message: "segment \(bad.index + 1) at level \(bad.level + 1) of 1…\(video.levelCount)"))
                    }
                } catch {
                    findings.append(Finding(check: "session runs", trace: name, message: String(describing: error)))
                }
            }
        }
        findings += deadLinkFindings(descriptor, seed: seed)
        return Report(strategyID: descriptor.id, levelsByTrace: levels, findings: findings)
    }

    /// A link that delivers nothing, and one that delivers next to nothing, must both end with
    /// the emulator's error, never hang.
    private func deadLinkFindings(_ descriptor: StrategyDescriptor, seed: UInt64) -> [Finding] {
        var findings: [Finding] = []
        var limited = emulator
        limited.profile.maxSessionSeconds = 600
        let cases: [(name: String, bitsPerSecond: [Double], expected: EmulationError)] = [
            ("zero-bandwidth", [0, 0], .traceDeliversNoData(trace: "zero-bandwidth")),
            ("near-zero", [8, 0], .sessionTimeLimit(trace: "near-zero", limitSeconds: 600)),
        ]
        for item in cases {
            do {
                let trace = try NetworkTrace(name: item.name, periodEndSeconds: [1, 10], bandwidthBitsPerSecond: item.bitsPerSecond)
                _ = try limited.run(strategy: try descriptor.makeStrategy(), strategyID: descriptor.id, trace: trace, video: video, seed: seed)
                findings.append(Finding(check: "dead link ends", trace: item.name, message: "the session finished, expected \(item.expected)"))
            } catch let error as EmulationError where error == item.expected {
                continue
            } catch {
                findings.append(Finding(check: "dead link ends", trace: item.name, message: "\(error)"))
            }
        }
        return findings
    }
}
