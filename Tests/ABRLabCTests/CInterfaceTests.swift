import ABRLabC
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// The C interface the Python package loads: every failure a code and a message in the caller's
/// buffer, never a trap; a refused step moves nothing; rewards add up to the session's total.
@Suite(.tags(.capi), .selectedByTags) struct CInterfaceTests {
    /// An environment over the repository's traces and video with the options `extra` adds (JSON
    /// members), or the error it was refused with: its code, message and JSON detail.
    static func create(
        _ extra: String = "", video: String = PackageRoot.file("Traces/video.json").path,
        traces: String = PackageRoot.file("Traces/default").path, slots: Int32 = 1, threads: Int32 = 1
    ) -> (env: UnsafeMutableRawPointer?, code: Int32, message: String, detail: [String: Any]) {
        let json = "{\"video\": \"\(video)\", \"traces\": [\"\(traces)\"]\(extra.isEmpty ? "" : ", " + extra)}"
        var env: UnsafeMutableRawPointer?
        var message = [CChar](repeating: 0, count: 1024)
        let code = abrlabEnvCreate(json, slots, threads, &env, &message, message.count)
        return (env, code, Self.text(message), Self.detail(message))
    }

    /// The NUL-terminated text at the start of `buffer`.
    static func text(_ buffer: some Collection<CChar>) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The JSON detail the library writes after an error's message and its NUL; empty where none fit.
    static func detail(_ buffer: [CChar]) -> [String: Any] {
        guard let end = buffer.firstIndex(of: 0), end + 1 < buffer.count else { return [:] }
        let text = Self.text(buffer[(end + 1)...])
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    /// The layouts the library names its buffers and fields by.
    static func layouts(_ env: UnsafeMutableRawPointer) throws -> [String: Any] {
        let needed = abrlabEnvLayouts(env, nil, 0)
        var buffer = [CChar](repeating: 0, count: needed)
        #expect(abrlabEnvLayouts(env, &buffer, needed) == needed)
        let text = Self.text(buffer)
        return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The words of a reset or step call, filled by field name as Python fills them.
    struct Call {
        var words: [Int64]
        let index: [String: Int]

        init(_ env: UnsafeMutableRawPointer) throws {
            let names = try #require(try CInterfaceTests.layouts(env)["call"] as? [String])
            index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
            words = [Int64](repeating: 0, count: names.count)
        }

        subscript(name: String) -> Int64 {
            get { words[index[name]!] }
            set { words[index[name]!] = newValue }
        }

        mutating func set<Element>(_ name: String, _ buffer: UnsafeMutablePointer<Element>?) {
            self[name] = buffer.map { Int64(Int(bitPattern: $0)) } ?? 0
        }

        func reset(_ env: UnsafeMutableRawPointer, _ message: inout [CChar]) -> Int32 {
            abrlabEnvReset(env, words, &message, message.count)
        }

        func step(_ env: UnsafeMutableRawPointer, _ message: inout [CChar]) -> Int32 {
            abrlabEnvStep(env, words, &message, message.count)
        }
    }

    @Test(arguments: [
        (#""profile": "nope""#, Int32(7), "profile: 'nope' is not one of default, pensieve, sabre, live, twitch-challenge, dashjs"),
        (#""max_buffer": 3"#, 1, "unknown option 'max_buffer'"),
        (#""segments": "three""#, 7, "segments: takes an integer"),
        (#""experts": ["nope"]"#, 2, "nope"),
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
        #expect((try Self.layouts(env)["ladder_kbps"] as? [Double])?.count == 3)
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-\(UUID().uuidString).mpd")
        try "<MPD>\n<Period>\n</MPD>\n".write(to: bad, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: bad) }
        let refused = Self.create(video: bad.path)
        #expect(refused.env == nil && refused.code == 2)
        #expect(refused.detail["file"] as? String == bad.path && refused.detail["line"] as? Int == 3, "\(refused.detail)")
        #expect(refused.message.contains("\(bad.path):3: column 1: malformed XML (the end tag </MPD> does not match <Period> of line 2)"), "\(refused.message)")
    }

    /// After `abrlab_env_close` every call answers code 4 ("closed") instead of using the freed
    /// sessions; closing twice is harmless, and the pointer lives until destroyed.
    @Test func aClosedEnvironmentAnswersEveryCallWithClosed() throws {
        let created = Self.create(#""segments": 5"#)
        let env = try #require(created.env)
        defer { abrlabEnvDestroy(env) }
        let run = try Run(env, slots: 1)
        var message = [CChar](repeating: 0, count: 256)
        #expect(run.call.reset(env, &message) == 0)
        abrlabEnvClose(env)
        abrlabEnvClose(env)
        #expect(run.call.step(env, &message) == 4)
        #expect(Self.text(message) == "the abrlab environment is closed; make a new one to go on")
        #expect(run.call.reset(env, &message) == 4)
        #expect(abrlabEnvSeed(env, 0, 1, &message, message.count) == 4)
        var levels = [Int64](repeating: 0, count: 1)
        #expect(abrlabEnvExperts(env, &levels, &message, message.count) == 4)
        #expect(abrlabEnvLayouts(env, nil, 0) == 1)
    }

    @Test func messagesAreCutToTheCallersBuffer() {
        var env: UnsafeMutableRawPointer?
        var message = [CChar](repeating: 7, count: 8)
        #expect(abrlabEnvCreate("[]", 1, 1, &env, &message, message.count) == 1)
        #expect(message[7] == 0 && Self.text(message) == "options")
    }

    @Test func aSessionStepsToItsEndAndRewardsAddUpToItsTotal() throws {
        let created = Self.create(#""segments": 5"#)
        let env = try #require(created.env)
        defer { abrlabEnvDestroy(env) }
        let run = try Run(env, slots: 1, mode: "disabled")
        var message = [CChar](repeating: 0, count: 256)
        #expect(run.call.step(env, &message) == 5)
        #expect(Self.text(message) == "step before reset: call reset() first")
        run.resetTraces[0] = 999
        #expect(run.call.reset(env, &message) == 1)
        #expect(Self.text(message).hasPrefix("trace 999 does not exist: the environment has "))
        run.resetTraces[0] = 2
        run.state.update(repeating: 1, count: run.stateLength)
        #expect(run.call.reset(env, &message) == 0)
        #expect(run.traces[0] == 2 && (0..<run.stateLength).allSatisfy { run.state[$0] == 0 })
        run.actions[0] = Int64(run.levels)
        #expect(run.call.step(env, &message) == 1)
        var total = 0.0
        run.actions[0] = 1
        for _ in 0..<5 {
            #expect(run.call.step(env, &message) == 0)
            total += run.rewards[0]
        }
        #expect(run.terminated[0] == 1 && run.truncated[0] == 0)
        #expect(run.records[run.recordLength - 1] == total)
        #expect(run.call.step(env, &message) == 5)
        #expect(Self.text(message).contains("ended"))
    }

    @Test func aVectorStepWithAnActionOutOfRangeMovesNoSession() throws {
        let created = Self.create(slots: 3)
        let env = try #require(created.env)
        defer { abrlabEnvDestroy(env) }
        let run = try Run(env, slots: 3)
        var message = [CChar](repeating: 0, count: 256)
        #expect(run.call.reset(env, &message) == 0)
        run.actions.update(from: [0, 99, 0], count: 3)
        #expect(run.call.step(env, &message) == 1)
        #expect(Self.text(message).contains("action 99 of environment 1"))
        var levels = [Int64](repeating: 0, count: 0)
        #expect(abrlabEnvExperts(env, &levels, &message, message.count) == 0)
        run.actions.update(from: [0, 1, 2], count: 3)
        #expect(run.call.step(env, &message) == 0)
        // Each session's first segment: the context's segment_index is 1 in every row.
        #expect((0..<3).allSatisfy { run.context[$0 * run.contextLength] == 1 })
    }

    /// Same-step: the step that ends an episode returns the next one's first observation and
    /// writes the ended one's last into the final buffers; next-step resets a step later;
    /// disabled refuses until a masked reset names the session.
    @Test(arguments: ["same-step", "next-step", "disabled"])
    func autoresetModesEndEpisodesAsGymnasiumDoes(mode: String) throws {
        let created = Self.create(#""segments": 3"#, slots: 2)
        let env = try #require(created.env)
        defer { abrlabEnvDestroy(env) }
        let run = try Run(env, slots: 2, mode: mode)
        var message = [CChar](repeating: 0, count: 256)
        #expect(run.call.reset(env, &message) == 0)
        for _ in 0..<3 { #expect(run.call.step(env, &message) == 0) }
        #expect(run.terminated[0] == 1 && run.terminated[1] == 1)
        let segmentIndex = { (buffer: UnsafeMutablePointer<Double>, slot: Int) in buffer[slot * run.contextLength] }
        switch mode {
        case "same-step":
            #expect(run.resets[0] == 1 && run.resets[1] == 1)
            #expect(segmentIndex(run.context, 0) == 0 && segmentIndex(run.finalContext, 0) == 3)
            #expect(run.call.step(env, &message) == 0)
            #expect(run.resets[0] == 0 && run.records[0] == 1)
        case "next-step":
            #expect(run.resets[0] == 0 && segmentIndex(run.context, 0) == 3)
            #expect(run.call.step(env, &message) == 0)
            #expect(run.resets[0] == 1 && run.rewards[0] == 0 && segmentIndex(run.context, 0) == 0 && run.records[0].isNaN)
        default:
            // 5: a step outside an episode (Python's StepBeforeReset).
            #expect(run.call.step(env, &message) == 5)
            #expect(Self.text(message) == "session 0: the episode has ended: call reset() before stepping again")
            run.resetMask[0] = 0
            #expect(run.call.reset(env, &message) == 0)
            #expect(segmentIndex(run.context, 0) == 3 && segmentIndex(run.context, 1) == 0)
            #expect(run.call.step(env, &message) == 5)
            run.resetMask[0] = 1
            #expect(run.call.reset(env, &message) == 0)
            #expect(run.call.step(env, &message) == 0)
        }
    }

    /// Sessions stepped on worker threads give what the caller's thread gives, bit for bit.
    @Test func workerThreadsChangeNoResult() throws {
        var runs: [[Double]] = []
        for threads: Int32 in [1, 3] {
            let created = Self.create(#""segments": 6"#, slots: 5, threads: threads)
            let env = try #require(created.env)
            defer { abrlabEnvDestroy(env) }
            let run = try Run(env, slots: 5, mode: "same-step")
            var message = [CChar](repeating: 0, count: 256)
            for slot in 0..<5 { #expect(abrlabEnvSeed(env, Int32(slot), UInt64(slot + 7), &message, message.count) == 0) }
            #expect(run.call.reset(env, &message) == 0)
            var seen: [Double] = []
            for step in 0..<20 {
                for slot in 0..<5 { run.actions[slot] = Int64((step + slot) % run.levels) }
                #expect(run.call.step(env, &message) == 0, "\(Self.text(message))")
                seen += (0..<5).map { run.rewards[$0] } + (0..<5 * run.recordLength).map { run.records[$0] }
                seen += (0..<5 * run.contextLength).map { run.context[$0] } + (0..<5).map { Double(run.traces[$0]) }
            }
            runs.append(seen)
        }
        #expect(runs[0].elementsEqual(runs[1]) { $0 == $1 || ($0.isNaN && $1.isNaN) })
    }

    /// An episode that reaches `max_episode_steps` ends truncated, not terminated.
    @Test func theStepLimitTruncates() throws {
        let created = Self.create(#""segments": 5"#)
        let env = try #require(created.env)
        defer { abrlabEnvDestroy(env) }
        let run = try Run(env, slots: 1, mode: "disabled")
        run.call["max_episode_steps"] = 2
        var message = [CChar](repeating: 0, count: 256)
        #expect(run.call.reset(env, &message) == 0)
        #expect(run.call.step(env, &message) == 0 && run.truncated[0] == 0)
        #expect(run.call.step(env, &message) == 0 && run.truncated[0] == 1 && run.terminated[0] == 0)
        #expect(run.call.step(env, &message) == 5)
    }

    /// The context's fields are declared once (``EnvFields``), tied here to the Lua API's ctx
    /// (api.c): each field that carries a ctx field names it, and every ctx field is carried or
    /// left out for a reason; the same quantity in SI units (bps for kbps).
    @Test func theContextCarriesTheLuaAPIsCtxFields() throws {
        let created = Self.create()
        let env = try #require(created.env)
        defer { abrlabEnvDestroy(env) }
        let observation = try #require(try Self.layouts(env)["observation"] as? [String: Any])
        let fields = try #require(observation["context"] as? [[String: Any]])
        let ctx = Dictionary(uniqueKeysWithValues: LuaAPITable.ctx.fields.map { ($0.name, $0) })
        let leftOut: [String: String] = [
            "level_count": "ladder_bps's length",
            "sizes_bytes": "the histories of throughput and download time describe the downloads",
            "quality": "a function of segment and level, not a value",
            "mpc_search": "a function",
            "live": "a setting of the profile, not of the decision",
            "throughput_method": "a setting of the profile, not of the decision",
            "chunk_duration_s": "a setting of the profile, not of the decision",
            "last_chunks": "a list of tables",
        ].merging(LuaAPITable.ctx.fields.filter { $0.name.hasPrefix("dashjs_") }.map {
            ($0.name, "dash.js's view of a Lua session on the dashjs profile (DashJSAdvisor), not of the environment's decisions")
        }) { first, _ in first }
        var carried: Set<String> = []
        var offset = 0
        for field in fields {
            let name = try #require(field["name"] as? String)
            #expect(field["offset"] as? Int == offset, "\(name)")
            offset += (field["shape"] as? [Int])?.first ?? 1
            guard let lua = field["lua"] as? String else { continue }
            let source = try #require(ctx[lua], "\(name) carries ctx.\(lua), which api.c does not declare")
            carried.insert(lua)
            let unit = source.unit.map { $0 == .kilobitsPerSecond ? "bps" : $0.rawValue }
            if let unit { #expect(name.hasSuffix("_" + unit), "\(name) carries ctx.\(lua) in \(unit)") }
        }
        #expect(observation["context_length"] as? Int == offset)
        for name in ctx.keys.sorted() {
            #expect(carried.contains(name) != (leftOut[name] != nil), "ctx.\(name): carried or left out, not both nor neither")
        }
    }

    /// Buffers for `slots` sessions, named in the call: one session takes reset traces (−1: the
    /// shuffle's next), several a reset mask (all set) and the context with its final rows.
    final class Run {
        var call: Call
        let levels: Int, stateLength: Int, contextLength: Int, recordLength: Int
        let actions: UnsafeMutablePointer<Int64>, resetTraces: UnsafeMutablePointer<Int64>, traces: UnsafeMutablePointer<Int64>
        let state: UnsafeMutablePointer<Float>
        let context: UnsafeMutablePointer<Double>, finalContext: UnsafeMutablePointer<Double>
        let rewards: UnsafeMutablePointer<Double>, records: UnsafeMutablePointer<Double>
        let terminated: UnsafeMutablePointer<UInt8>, truncated: UnsafeMutablePointer<UInt8>, resets: UnsafeMutablePointer<UInt8>
        let resetMask: UnsafeMutablePointer<UInt8>

        init(_ env: UnsafeMutableRawPointer, slots: Int, mode: String = "next-step") throws {
            call = try Call(env)
            let layouts = try CInterfaceTests.layouts(env)
            let observation = try #require(layouts["observation"] as? [String: Any])
            let stateShape = try #require((observation["state"] as? [String: Any])?["shape"] as? [Int])
            levels = try #require(layouts["ladder_kbps"] as? [Double]).count
            stateLength = stateShape.reduce(1, *)
            contextLength = try #require(observation["context_length"] as? Int)
            recordLength = try #require(layouts["record"] as? [String]).count
            func zeros<Element: Numeric>(_ count: Int) -> UnsafeMutablePointer<Element> {
                let buffer = UnsafeMutablePointer<Element>.allocate(capacity: count)
                buffer.initialize(repeating: 0, count: count)
                return buffer
            }
            (actions, resetTraces, traces) = (zeros(slots), zeros(slots), zeros(slots))
            state = zeros(slots * stateLength)
            (context, finalContext) = (zeros(slots * contextLength), zeros(slots * contextLength))
            (rewards, records) = (zeros(slots), zeros(slots * recordLength))
            (terminated, truncated, resets, resetMask) = (zeros(slots), zeros(slots), zeros(slots), zeros(slots))
            resetMask.update(repeating: 1, count: slots)
            let modes = try #require(layouts["autoreset_modes"] as? [String])
            call["autoreset"] = Int64(try #require(modes.firstIndex(of: mode)))
            call.set("actions", actions)
            call.set("traces", traces)
            call.set("state", state)
            call.set("rewards", rewards)
            call.set("records", records)
            call.set("terminated", terminated)
            call.set("truncated", truncated)
            call.set("resets", resets)
            if slots == 1 {
                resetTraces.initialize(to: -1)
                call.set("reset_traces", resetTraces)
            } else {
                call.set("context", context)
                call.set("final_context", finalContext)
                call.set("reset_mask", resetMask)
            }
        }

        deinit {
            for buffer in [UnsafeMutableRawPointer(actions), .init(resetTraces), .init(traces), .init(state), .init(context), .init(finalContext),
                           .init(rewards), .init(records), .init(terminated), .init(truncated), .init(resets), .init(resetMask)] {
                buffer.deallocate()
            }
        }
    }
}
