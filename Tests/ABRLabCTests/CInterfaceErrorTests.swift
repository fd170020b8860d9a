import Foundation
import Testing
import TestSupport
@testable import ABRLabC

/// Errors by subject: each subject its own code, and beside the message a JSON detail that names
/// the setting, the file and line, the strategy or the limit (ABI 5).
@Suite(.tags(.capi), .selectedByTags) struct CInterfaceErrorTests {
    @Test func everySubjectHasACodeOfItsOwn() {
        let codes = EnvError.Subject.allCases.map(\.code)
        #expect(Set(codes).count == codes.count && !codes.contains(0))
        #expect(abrlabABIVersion() == 5)
    }

    /// A setting the video does not fit is named by its keyword, as compare names it by its flag.
    @Test func aSettingIsNamedInTheMessageAndTheDetail() {
        let created = CInterfaceTests.create(#""first_level": 9"#)
        #expect(created.env == nil && created.code == EnvError.Subject.setting.code)
        #expect(created.message == "first_level: video: the first level is 9 but the video has 6 levels (1…6)")
        #expect(created.detail["subject"] as? String == "setting")
        #expect(created.detail["setting"] as? String == "first_level")
        #expect(created.detail["settings"] as? [String] == ["first_level"])
        let range = CInterfaceTests.create(#""max_buffer_s": -1"#)
        #expect(range.code == 7 && range.detail["setting"] as? String == "max_buffer_s", "\(range.message)")
    }

    @Test func aMissingFileIsAFileMissing() {
        let created = CInterfaceTests.create(traces: "/no/such/traces")
        #expect(created.code == EnvError.Subject.file.code)
        #expect(created.detail["file"] as? String == "/no/such/traces" && created.detail["missing"] as? Bool == true)
        #expect(created.detail["subject"] as? String == "file")
    }

    /// A trace that delivers one bit a second cannot finish a segment within the session's limits.
    @Test func aSessionPastItsLimitIsALimit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-limit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "end_s,bandwidth_bps,latency_s\n1,1,0.01\n".write(to: folder.appendingPathComponent("slow.csv"), atomically: true, encoding: .utf8)
        let created = CInterfaceTests.create(#""segments": 2"#, traces: folder.path)
        let env = try #require(created.env, "\(created.message)")
        defer { abrlabEnvDestroy(env) }
        let run = try CInterfaceTests.Run(env, slots: 1)
        var message = [CChar](repeating: 0, count: 1024)
        #expect(run.call.reset(env, &message) == 0, "\(CInterfaceTests.text(message))")
        #expect(run.call.step(env, &message) == EnvError.Subject.limit.code, "\(CInterfaceTests.text(message))")
        let detail = CInterfaceTests.detail(message)
        #expect(detail["subject"] as? String == "limit" && detail["trace"] as? String == "slow", "\(detail)")
        #expect(["time", "steps"].contains(detail["limit"] as? String ?? ""), "\(detail)")
        #expect(CInterfaceTests.text(message).hasPrefix("slow: the session "))
    }

    /// An expert whose script throws is out of the episode; asking the experts names it, its
    /// trace, and the script's file and line.
    @Test func anExpertThatFailsIsAStrategyError() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-failing-\(UUID().uuidString).lua")
        try """
            local M = { name = "failing" }
            function M.choose(ctx)
              error("no decision here")
            end
            return M
            """.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let created = CInterfaceTests.create(#""experts": ["\#(script.path)"], "segments": 3"#)
        let env = try #require(created.env, "\(created.message)")
        defer { abrlabEnvDestroy(env) }
        let run = try CInterfaceTests.Run(env, slots: 1)
        var message = [CChar](repeating: 0, count: 1024)
        #expect(run.call.reset(env, &message) == 0, "\(CInterfaceTests.text(message))")
        var levels = [Int64](repeating: 0, count: 1)
        #expect(abrlabEnvExperts(env, &levels, &message, message.count) == EnvError.Subject.strategy.code)
        let detail = CInterfaceTests.detail(message)
        let id = script.deletingPathExtension().lastPathComponent
        #expect(detail["subject"] as? String == "strategy" && detail["strategy"] as? String == id, "\(detail)")
        #expect(detail["file"] as? String == script.path && detail["line"] as? Int == 3, "\(detail)")
        #expect(CInterfaceTests.text(message).contains("no decision here"))
    }

    /// A detail that does not fit after the message is left out, never cut.
    @Test func aDetailThatDoesNotFitIsLeftOut() {
        var env: UnsafeMutableRawPointer?
        let json = #"{"video": "\#(PackageRoot.file("Traces/video.json").path)", "traces": ["/no/such/traces"]}"#
        var message = [CChar](repeating: 7, count: 60)
        #expect(abrlabEnvCreate(json, 1, 1, &env, &message, message.count) == 2)
        #expect(CInterfaceTests.text(message) == "/no/such/traces: no such trace file or folder")
        #expect(CInterfaceTests.detail(message).isEmpty)
        let end = message.firstIndex(of: 0)!
        #expect(message[end + 1] == 0)
    }
}
