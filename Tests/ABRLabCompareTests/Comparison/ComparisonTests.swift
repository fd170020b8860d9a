import ABRLab
import ABRLabCompare
import Foundation
import Testing
import TestSupport

/// A compare driven through the library, as any front end drives it.
@Suite(.tags(.compare), .selectedByTags) struct ComparisonTests {
    static func request(out: URL, jobs: Int) -> Comparison.Request {
        var request = Comparison.Request()
        request.strategies = ["conservative", "bba-native"]
        request.traces = [PackageRoot.file("Traces/3g").path]
        request.settings.video = PackageRoot.file("Traces/video.json").path
        request.out = out.path
        request.jobs = jobs
        return request
    }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-comparison-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aRunWritesItsFilesAndSaysItsProgressTheSameWhateverTheJobs() throws {
        let one = try Self.folder()
        let two = try Self.folder()
        defer { try? FileManager.default.removeItem(at: one); try? FileManager.default.removeItem(at: two) }
        var warnings: [String] = []
        var last = (done: 0, total: 0)
        let first = try Comparison(Self.request(out: one, jobs: 1)).run(naming: \.rawValue, warn: { warnings.append($0) }) { last = ($0, $1) }
        let second = try Comparison(Self.request(out: two, jobs: 2)).run(naming: \.rawValue)
        let traces = try FileManager.default.contentsOfDirectory(atPath: PackageRoot.file("Traces/3g").path).filter { $0.hasSuffix(".csv") }.count
        #expect(first.totalSessionCount == 2 * traces)
        #expect(first.sessionCount == first.totalSessionCount)
        #expect(first.failureCount == 0)
        #expect(warnings.isEmpty)
        #expect(last.done == last.total && last.total == first.totalSessionCount)
        #expect(first.ranking.summaries.map(\.strategyID).sorted() == ["bba-native", "conservative"])
        for file in ["sessions.csv", "segments.csv", "summary.csv", "ranked.json"] {
            let a = try Data(contentsOf: one.appendingPathComponent(file))
            #expect(a == (try Data(contentsOf: two.appendingPathComponent(file))), "\(file) depends on the jobs")
        }
        #expect(second.ranking.summaries.map(\.qoeTotalMean) == first.ranking.summaries.map(\.qoeTotalMean))
    }

    @Test func warningsNameSettingsAsTheCallerDoes() throws {
        let out = try Self.folder()
        defer { try? FileManager.default.removeItem(at: out) }
        var request = Self.request(out: out, jobs: 1)
        request.settings.profile = "pensieve"
        request.settings.video = "cbr:300,750@4s"
        request.strategies = ["conservative"]
        var warnings: [String] = []
        _ = try Comparison(request).run(naming: { "<\($0.rawValue)>" }, warn: { warnings.append($0) })
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("warning: <profile> pensieve with video") == true, "\(warnings)")
        #expect(warnings.first?.contains("<ladder_kbps> 300,750,1200,1850,2850,4300 <segment_duration_s> 4") == true)
        let manifest = try String(contentsOf: out.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(manifest.contains("<profile> pensieve"), "run.json records the warning as it was said")
    }

    @Test func aBadRequestIsAnErrorNamingItsSettingAndWritesNothing() throws {
        let out = try Self.folder()
        defer { try? FileManager.default.removeItem(at: out) }
        var request = Self.request(out: out, jobs: 1)
        request.settings.profile = "nope"
        let error = #expect(throws: InputError.self) { try Comparison(request).run(naming: \.rawValue) }
        #expect(error?.subject == .settings([.profile]))
        #expect(error?.message.hasPrefix("'nope' is not one of default, pensieve") == true)
        request.settings.profile = "default"
        request.baseline = "robust_mpc-native"
        request.strategies = ["conservative"]
        request.settings.params = ["conservative.nope=1"]
        #expect(throws: InputError.self) { try Comparison(request).run(naming: \.rawValue) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }
}
