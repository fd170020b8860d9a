import ABRLabC
import Foundation
import Testing
import TestSupport

/// The C interface the Python package loads: every failure a code and a message in the caller's
/// buffer, never a trap; a refused step moves nothing; rewards add up to the session's total.
@Suite(.tags(.capi), .selectedByTags) struct CInterfaceTests {
    /// An environment over the repository's traces and video with the options `extra` adds (JSON
    /// members), or the error it was refused with.
    static func create(
        _ extra: String = "", video: String = PackageRoot.file("Traces/video.json").path,
        traces: String = PackageRoot.file("Traces/default").path, slots: Int32 = 1
    ) -> (env: UnsafeMutableRawPointer?, code: Int32, message: String) {
        let json = "{\"video\": \"\(video)\", \"traces\": [\"\(traces)\"]\(extra.isEmpty ? "" : ", " + extra)}"
        var env: UnsafeMutableRawPointer?
        var message = [CChar](repeating: 0, count: 512)
        let code = abrlabEnvCreate(json, slots, &env, &message, message.count)
        return (env, code, String(cString: message))
    }

    @Test(arguments: [
        (#""profile": "nope""#, Int32(1), "profile: 'nope' is not one of default, pensieve, sabre, live, twitch-challenge"),
        (#""max_buffer": 3"#, 1, "unknown option 'max_buffer'"),
        (#""segments": "three""#, 1, "segments: takes an integer"),
        (#""experts": ["nope"]"#, 1, "nope"),
    ])
    func badOptionsAreACodeAndAMessage(extra: String, code: Int32, message: String) {
        let created = Self.create(extra)
        #expect(created.env == nil)
        #expect(created.code == code)
        #expect(created.message.contains(message), "\(created.message)")
    }

    @Test func missingFilesAreTheirOwnCode() {
        let video = Self.create(video: "/no/such/video.json")
        #expect(video.code == 2 && video.message.contains("/no/such/video.json: no such video"))
        let traces = Self.create(traces: "/no/such/traces")
        #expect(traces.code == 2 && traces.message.contains("/no/such/traces: no such trace"))
    }

    /// Python's `video=` resolves as `--video` does, DASH MPDs included.
    @Test func aDASHVideoLoadsAndABadOneIsAMessage() throws {
        let fixtures = PackageRoot.file("Tests/abrlabTests/Fixtures/dash")
        let created = Self.create(video: fixtures.appendingPathComponent("single-file/segment-base.mpd").path)
        let env = try #require(created.env, "\(created.message)")
        defer { abrlabEnvDestroy(env) }
        var sizes = [Int64](repeating: 0, count: 10)
        abrlabEnvSizes(env, &sizes)
        #expect(sizes[0] == 3)
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-\(UUID().uuidString).mpd")
        try "<MPD>\n<Period>\n</MPD>\n".write(to: bad, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: bad) }
        let refused = Self.create(video: bad.path)
        #expect(refused.env == nil && refused.code == 1)
        #expect(refused.message.contains("\(bad.path):3: column 1: malformed XML (the end tag </MPD> does not match <Period> of line 2)"), "\(refused.message)")
    }

    /// After `abrlab_env_close` every call answers code 4 ("closed") instead of using the freed
    /// sessions; closing twice is harmless, and the pointer lives until destroyed.
    @Test func aClosedEnvironmentAnswersEveryCallWithClosed() throws {
        let created = Self.create(#""segments": 5"#)
        let env = try #require(created.env)
        defer { abrlabEnvDestroy(env) }
        var message = [CChar](repeating: 0, count: 256)
        var trace: Int64 = 0
        #expect(abrlabEnvReset(env, 0, -1, nil, nil, &trace, &message, message.count) == 0)
        abrlabEnvClose(env)
        abrlabEnvClose(env)
        var reward = 0.0
        var terminated: UInt8 = 0
        #expect(abrlabEnvStep(env, 0, 0, nil, nil, &reward, &terminated, nil, &message, message.count) == 4)
        #expect(String(cString: message) == "the abrlab environment is closed; make a new one to go on")
        #expect(abrlabEnvReset(env, 0, -1, nil, nil, &trace, &message, message.count) == 4)
        #expect(abrlabEnvSeed(env, 0, 1, &message, message.count) == 4)
        var levels = [Int64](repeating: 0, count: 1)
        #expect(abrlabEnvExperts(env, &levels, &message, message.count) == 4)
    }

    @Test func messagesAreCutToTheCallersBuffer() {
        var env: UnsafeMutableRawPointer?
        var message = [CChar](repeating: 7, count: 8)
        #expect(abrlabEnvCreate("[]", 1, &env, &message, message.count) == 1)
        #expect(message[7] == 0 && String(cString: message) == "options")
    }

    @Test func aSessionStepsToItsEndAndRewardsAddUpToItsTotal() throws {
        let created = Self.create(#""segments": 5"#)
        let env = try #require(created.env)
        defer { abrlabEnvDestroy(env) }
        var sizes = [Int64](repeating: 0, count: 10)
        abrlabEnvSizes(env, &sizes)
        let (stateLength, recordLength) = (Int(sizes[2] * sizes[3]), Int(sizes[5]))
        var state = [Float](repeating: 1, count: stateLength)
        var record = [Double](repeating: 0, count: recordLength)
        var message = [CChar](repeating: 0, count: 256)
        var reward = 0.0, terminated: UInt8 = 0, trace: Int64 = -1
        #expect(abrlabEnvStep(env, 0, 0, &state, nil, &reward, &terminated, &record, &message, message.count) == 1)
        #expect(String(cString: message).contains("reset"))
        #expect(abrlabEnvReset(env, 3, -1, &state, nil, &trace, &message, message.count) == 1)
        #expect(abrlabEnvReset(env, 0, 2, &state, nil, &trace, &message, message.count) == 0)
        #expect(trace == 2 && state.allSatisfy { $0 == 0 })
        #expect(abrlabEnvStep(env, 0, sizes[0], &state, nil, &reward, &terminated, &record, &message, message.count) == 1)
        var total = 0.0
        for _ in 0..<5 {
            #expect(abrlabEnvStep(env, 0, 1, &state, nil, &reward, &terminated, &record, &message, message.count) == 0)
            total += reward
        }
        #expect(terminated == 1)
        #expect(record[recordLength - 1] == total)
        #expect(abrlabEnvStep(env, 0, 1, &state, nil, &reward, &terminated, &record, &message, message.count) == 1)
    }

    @Test func aVectorStepWithAnActionOutOfRangeMovesNoSession() throws {
        let created = Self.create(slots: 3)
        let env = try #require(created.env)
        defer { abrlabEnvDestroy(env) }
        var traces = [Int64](repeating: -1, count: 3)
        var message = [CChar](repeating: 0, count: 256)
        #expect(abrlabEnvResetAll(env, nil, nil, &traces, &message, message.count) == 0)
        var rewards = [Double](repeating: 0, count: 3)
        var terminated = [UInt8](repeating: 0, count: 3), resets = terminated
        #expect(abrlabEnvStepAll(env, [0, 99, 0], nil, nil, &rewards, &terminated, &resets, nil, &traces, &message, message.count) == 1)
        #expect(String(cString: message).contains("action 99 of environment 1"))
        var levels = [Int64](repeating: 0, count: 0)
        #expect(abrlabEnvExperts(env, &levels, &message, message.count) == 0)
        var sizes = [Int64](repeating: 0, count: 10)
        abrlabEnvSizes(env, &sizes)
        var context = [Double](repeating: 0, count: 3 * Int(sizes[4]))
        #expect(abrlabEnvStepAll(env, [0, 1, 2], nil, &context, &rewards, &terminated, &resets, nil, &traces, &message, message.count) == 0)
        // Each session's first segment: the context's segment_index is 1 in every row.
        #expect((0..<3).allSatisfy { context[$0 * Int(sizes[4])] == 1 })
    }
}
