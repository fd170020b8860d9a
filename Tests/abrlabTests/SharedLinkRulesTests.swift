import Foundation
import Testing
import TestSupport

/// The rules built for shared links, through the CLI: `festive` and `shared/panda` pass
/// `strategies check`, PANDA's κ sweeps as docs/shared-link.md says, and a group of both, whose
/// FESTIVE players draw their request delays from the session seed, is the same whatever `--jobs`.
@Suite(.tags(.cli), .selectedByTags) struct SharedLinkRulesTests {
    @Test func festiveAndPandaPassTheStrategiesCheck() throws {
        let result = try CLI.run(["strategies", "check", "Strategies/festive.lua", "Strategies/shared/panda.lua"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("all 2 strategies passed"))
    }

    /// docs/shared-link.md: `--param shared/panda.kappa=0.14,0.28` compares Cisco's probing rate
    /// with ns-3's (the default): two rows, and the two rates play differently.
    @Test func pandaKappaSweepsCiscosRateAgainstTheDefault() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run([
            "compare", "--strategies", "shared/panda", "--param", "shared/panda.kappa=0.14,0.28", "--traces", "Traces/3g",
            "--quiet", "--out", folder.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try CLI.read(folder.appendingPathComponent("sessions.csv")).split(separator: "\n").dropFirst()
            .map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let byStrategy = Dictionary(grouping: rows, by: { String($0[0]) })
        #expect(Set(byStrategy.keys) == ["shared/panda[kappa=0.14]", "shared/panda[kappa=0.28]"])
        let cisco = try #require(byStrategy["shared/panda[kappa=0.14]"]).map { $0.dropFirst().joined(separator: ",") }
        let ns3 = try #require(byStrategy["shared/panda[kappa=0.28]"]).map { $0.dropFirst().joined(separator: ",") }
        #expect(cisco.count == ns3.count && cisco != ns3)
    }

    @Test func aFestiveAndPandaGroupIsTheSameWhateverTheJobCount() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var outputs: [[String: Data]] = []
        for jobs in ["1", "3"] {
            let out = folder.appendingPathComponent("jobs\(jobs)")
            let result = try CLI.run([
                "compare", "--mix", "festive,shared/panda", "--players", "4", "--stagger-s", "2", "--traces", "Traces/broadband",
                "--jobs", jobs, "--quiet", "--out", out.path,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            outputs.append(try CompareGroupsTests.files(out))
        }
        #expect(outputs[0] == outputs[1])
        // FESTIVE's players idle between downloads: its scheduling holds their buffers near 30 s.
        let rows = String(decoding: try #require(outputs[0]["segments.csv"]), as: UTF8.self).split(separator: "\n").dropFirst()
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            .filter { $0[0] == "festive" }
        let gaps = zip(rows, rows.dropFirst()).compactMap { earlier, later -> Double? in
            guard earlier[1] == later[1], earlier[3] == later[3] else { return nil }
            return Double(later[8])! - Double(earlier[9])!
        }
        #expect(gaps.filter { $0 > 0.001 }.count > 100)
    }
}
