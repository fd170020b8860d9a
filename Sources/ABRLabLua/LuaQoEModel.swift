import ABRLab
import CLuaShim

/// A QoE model written in Lua: a script returning a table whose `qoe(segment, session)` gives
/// each segment's score (docs/qoe.md lists every field with its unit).
///
/// It runs in the same sandbox, under the same limits, as strategy scripts: each session runs
/// the script's top level afresh in its own environment, with `math.random` seeded from the
/// session's seed, on the engine of the thread scoring the session. Scores are therefore the same
/// whatever thread or order sessions run in.
public struct LuaQoEModel: SegmentQoEModel {
    /// The script's path as given; results name the model by it.
    public var path: String { location.path }
    public var name: String { path }
    /// The script's `name` field, or its file name without `.lua`.
    public let title: String
    public let description: String
    public let limits: LuaLimits
    public let verbose: Bool

    let location: LuaScriptLocation
    let compiledKey: LuaCompiledScriptKey
    /// Modules of the script's folder, read once and shared by every session.
    let resources: LuaScriptResources

    /// The modules the script requires: those known when it loaded, and any its sessions have
    /// read since.
    public var files: any ScriptResources { resources }

    /// Reads, compiles and inspects the script in a throwaway engine: syntax, the returned
    /// table and its `qoe` function. The top level runs once here, under the limits.
    public init(path: String, limits: LuaLimits = .default, verbose: Bool = false) throws(InputError) {
        let bytes = try LuaStrategyLoader.read(path)
        let fileName = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path))
        location = LuaScriptLocation(path: path, sourceLabel: String(fileName.prefix(48)), limits: limits)
        compiledKey = LuaCompiledScriptKey(label: location.sourceLabel, source: LuaScript.prefixed(bytes))
        resources = LuaScriptResources(scriptPath: path)
        resources.preload(referencesIn: bytes)
        self.limits = limits
        self.verbose = verbose
        let engine: LuaEngine
        do { engine = try LuaEngine(limits: limits, verbose: verbose) } catch {
            throw InputError(file: path, error.message)
        }
        let compiled = try engine.compile(compiledKey, location: location)
        var result: UnsafeMutablePointer<abrl_inspection>?
        var host = resources.moduleHost
        let status = abrl_qoe_inspect(engine.handle, compiled, &host, &result)
        guard status == Int32(ABRL_OK), let inspection = result else {
            throw location.error(status: status, message: engine.message, phase: "loading")
        }
        resources.seal()
        defer { abrl_inspection_free(inspection) }
        title = inspection.pointee.name.map { String(cString: $0) } ?? LuaStrategyLoader.strategyID(forPath: path)
        description = inspection.pointee.description.map { String(cString: $0) } ?? ""
    }

    public func segmentScores(_ result: SessionResult, video: Video, seed: UInt64) throws -> [Double] {
        let engine: LuaEngine
        do { engine = try LuaEngineCache.current.engine(limits: limits, verbose: verbose) } catch {
            throw InputError(file: path, error.message)
        }
        let compiled = try engine.compile(compiledKey, location: location)
        let model = try open(engine: engine, compiled: compiled, result: result, video: video, seed: seed)
        defer { abrl_qoe_close(model) }
        var scores: [Double] = []
        scores.reserveCapacity(result.segments.count)
        var previous: SegmentRecord?
        for record in result.segments {
            var segment = Self.segment(record, previous: previous, video: video)
            var score = 0.0
            let status = abrl_qoe_score(model, &segment, &score)
            guard status == Int32(ABRL_OK) else { throw failure(status: status, engine: engine, segment: record.index) }
            scores.append(score)
            previous = record
        }
        return scores
    }

    private func open(
        engine: LuaEngine, compiled: Int32, result: SessionResult, video: Video, seed: UInt64
    ) throws(InputError) -> OpaquePointer {
        let levelsKbps = video.bitratesKbps
        var opened: OpaquePointer?
        let status = levelsKbps.withUnsafeBufferPointer { kbps in
            result.traceName.withCString { trace in
                result.profileName.withCString { profile in
                    var session = abrl_qoe_session(
                        segment_count: Int64(result.segments.count), level_count: Int64(video.levelCount),
                        seed: Int64(bitPattern: seed), segment_duration_s: video.segmentDurationSeconds,
                        startup_s: result.startupSeconds, levels_kbps: kbps.baseAddress,
                        trace: trace, trace_length: result.traceName.utf8.count,
                        profile: profile, profile_length: result.profileName.utf8.count
                    )
                    var host = resources.moduleHost
                    return abrl_qoe_open(engine.handle, compiled, &host, &session, &opened)
                }
            }
        }
        guard status == Int32(ABRL_OK), let opened else {
            throw location.error(status: status, message: engine.message, phase: "starting the session")
        }
        return opened
    }

    /// What the script sees of one segment; NaN (nil in Lua) for what it does not have: the
    /// previous segment's values for the first, quality scores the video does not carry.
    private static func segment(_ record: SegmentRecord, previous: SegmentRecord?, video: Video) -> abrl_qoe_segment {
        func score(_ metric: QualityMetric, _ record: SegmentRecord?) -> Double {
            record.flatMap { video.quality(metric, segment: $0.index, level: $0.level) } ?? .nan
        }
        return abrl_qoe_segment(
            index: Int64(record.index), level: Int64(record.level), previous_level: Int64(previous?.level ?? -1),
            size_bytes: Int64(record.sizeBytes), bitrate_kbps: record.bitrateKbps,
            previous_bitrate_kbps: previous?.bitrateKbps ?? .nan, duration_s: video.segmentDurationSeconds,
            rebuffer_s: record.rebufferSeconds, download_time_s: record.downloadTimeSeconds,
            throughput_kbps: record.throughputKbps, buffer_before_s: record.bufferBeforeSeconds,
            buffer_after_s: record.bufferAfterSeconds, wait_s: record.waitSeconds,
            vmaf: score(.vmaf, record), previous_vmaf: score(.vmaf, previous),
            ssim: score(.ssim, record), previous_ssim: score(.ssim, previous)
        )
    }

    /// A failed `qoe` call as one line naming the script, the line where Lua knows it, and the
    /// segment (1-based, as the script counts).
    private func failure(status: Int32, engine: LuaEngine, segment: Int) -> InputError {
        if status == Int32(ABRL_ERR_RESULT) {
            return InputError(file: path, "qoe returned \(engine.message) for segment \(segment + 1); it must return a finite number")
        }
        let error = location.error(status: status, message: engine.message, phase: "qoe")
        return InputError(error.subject, line: error.line, "\(error.text) (qoe, segment \(segment + 1))")
    }
}
