import ABRLab
import ABRLabLua
import Foundation

/// What every session of an environment shares: the emulator, the video, the traces and the
/// QoE model, resolved from ``EnvOptions`` once.
struct EnvConfiguration: Sendable {
    let emulator: SessionEmulator
    let video: Video
    /// Sorted by name, as `abrlab compare` orders its sessions.
    let traces: [NetworkTrace]
    let scoring: EnvScoring
    /// The run seed that session seeds derive from, as `abrlab compare --seed`.
    let seed: UInt64
    /// The strategy id sessions are named by (in errors and in their derived seeds).
    let strategyID: String
    /// The ladder's top bitrate, which Pensieve's state divides by.
    let topKbps: Double

    var levelCount: Int { video.levelCount }

    init(_ options: EnvOptions) throws(EnvError) {
        let profile = try Self.profile(options)
        if let segments = options.segments, segments < 1 || segments > Video.maximumSizeCount {
            throw .invalid("segments must be from 1 to \(Video.maximumSizeCount), not \(segments)")
        }
        emulator = SessionEmulator(profile: profile, segmentsToPlay: options.segments, recordsTransitions: false)
        video = try Self.video(options)
        topKbps = video.ladder.map(\.bitrateKbps).max() ?? 1
        traces = try Self.traces(options)
        scoring = try Self.scoring(options, profile: profile)
        seed = options.seed ?? 1
        strategyID = options.strategy_id ?? "env"
        do { try emulator.validate(video: video) } catch { throw .invalid(error.description) }
        if case .perSegment(let model) = scoring {
            do { try model.validate(ladder: video.ladder) } catch { throw EnvError(error) }
        }
    }

    /// The session seed of `trace`, derived as `abrlab compare` derives it for `strategyID`.
    func sessionSeed(trace: Int) -> UInt64 {
        SessionSeed.derive(seed: seed, strategyID: strategyID, traceName: traces[trace].name)
    }

    private static func profile(_ options: EnvOptions) throws(EnvError) -> EmulationProfile {
        let name = options.profile ?? EmulationProfile.default.name
        guard var profile = EmulationProfile.named(name) else {
            throw .invalid("unknown profile '\(name)'; choose one of \(EmulationProfile.builtIn.map(\.name).joined(separator: ", "))")
        }
        if let maxBuffer = options.max_buffer_s {
            guard maxBuffer.isFinite, maxBuffer > 0 else { throw .invalid("max_buffer_s must be a positive number of seconds") }
            profile.maxBufferSeconds = maxBuffer
        }
        if options.no_abandon == true || options.bandwidth_multiplier != nil {
            guard var settings = profile.segmentBufferSettings else {
                throw .invalid("\(options.no_abandon == true ? "no_abandon" : "bandwidth_multiplier") works on the sabre profile only, not on \(profile.name)")
            }
            if options.no_abandon == true { settings.abandonment = false }
            if let multiplier = options.bandwidth_multiplier {
                guard multiplier.isFinite, multiplier > 0 else { throw .invalid("bandwidth_multiplier must be a positive number") }
                settings.bandwidthMultiplier = multiplier
            }
            profile.mechanics = .segmentBuffer(settings)
        }
        if options.target_latency_s != nil || options.live_duration_s != nil {
            guard var live = profile.liveSettings else {
                throw .invalid("\(options.target_latency_s != nil ? "target_latency_s" : "live_duration_s") works on the live profile only, not on \(profile.name)")
            }
            if let target = options.target_latency_s { live.targetLatencySeconds = target }
            live.durationSeconds = options.live_duration_s
            do { try live.validate() } catch { throw EnvError(error) }
            profile.mechanics = .live(live)
        }
        do { try profile.validate() } catch { throw EnvError(error) }
        return profile
    }

    private static func video(_ options: EnvOptions) throws(EnvError) -> Video {
        guard let spec = options.video else { throw .invalid("no video given") }
        if let duration = options.segment_duration_s, !(duration > 0 && duration <= Video.maximumSegmentSeconds) {
            throw .invalid("segment_duration_s must be a positive number of seconds, at most 86400")
        }
        do {
            return try VideoLoader.load(spec, ladderKbps: options.ladder_kbps, segmentDurationSeconds: options.segment_duration_s)
        } catch {
            let named = VideoPreset(rawValue: spec) != nil || spec.lowercased().hasPrefix("cbr:") || spec == AudioFormatPreset.name
            if !named, !FileManager.default.fileExists(atPath: spec) { throw .notFound("\(spec): no such video file or folder") }
            throw EnvError(error)
        }
    }

    private static func traces(_ options: EnvOptions) throws(EnvError) -> [NetworkTrace] {
        guard let arguments = options.traces, !arguments.isEmpty else { throw .invalid("no traces given") }
        let format: TraceFormat?
        if let name = options.trace_format {
            guard let known = TraceFormat(rawValue: name) else {
                throw .invalid("unknown trace format '\(name)'; choose \(TraceFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            format = known
        } else {
            format = nil
        }
        let bin = options.mahimahi_bin_ms ?? TraceLoadOptions.defaultMahimahiBinMilliseconds
        guard bin > 0 else { throw .invalid("mahimahi_bin_ms must be positive") }
        let loadOptions = TraceLoadOptions(mahimahiBinMilliseconds: bin)
        var traces: [NetworkTrace] = []
        for argument in arguments {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else {
                throw .notFound("\(argument): no such trace file or folder")
            }
            let url = URL(fileURLWithPath: argument)
            do {
                if isFolder.boolValue {
                    // A folder's notes are not traces (Traces/default holds a README.md).
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
                    for name in names.sorted() where !name.hasPrefix(".") && !name.hasPrefix("README") {
                        let file = url.appendingPathComponent(name)
                        var isNested: ObjCBool = false
                        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isNested), !isNested.boolValue else { continue }
                        traces.append(try TraceLoader.load(file, format: format, options: loadOptions).trace)
                    }
                } else {
                    traces.append(try TraceLoader.load(url, format: format, options: loadOptions).trace)
                }
            } catch {
                throw EnvError(error)
            }
        }
        guard !traces.isEmpty else { throw .invalid("\(arguments.joined(separator: " ")): the trace set is empty") }
        traces.sort { $0.name < $1.name }
        for (first, second) in zip(traces, traces.dropFirst()) where first.name == second.name {
            throw .invalid("two traces are named '\(first.name)'; trace names must be unique")
        }
        return traces
    }

    private static func scoring(_ options: EnvOptions, profile: EmulationProfile) throws(EnvError) -> EnvScoring {
        let name = options.qoe ?? QoEModel.Kind.linear.rawValue
        let weights = [("rebuffer_penalty", options.rebuffer_penalty), ("smoothness_penalty", options.smoothness_penalty),
                       ("gamma_p", options.gamma_p), ("switch_penalty", options.switch_penalty)]
        for case let (key, value?) in weights where !(value.isFinite && value >= 0) {
            throw .invalid("\(key) must be a number ≥ 0")
        }
        guard let kind = QoEModel.Kind(rawValue: name) else {
            guard name.hasSuffix(".lua") else {
                throw .invalid("unknown QoE model '\(name)'; choose linear, log, hd, sabre, nqoe or a Lua model script (.lua)")
            }
            if let (key, _) = weights.first(where: { $0.1 != nil }) {
                throw .invalid("\(key) applies to the built-in QoE models; a Lua model sets its own weights")
            }
            guard FileManager.default.fileExists(atPath: name) else { throw .notFound("\(name): no such QoE script") }
            do { return .script(try LuaQoEModel(path: name)) } catch { throw EnvError(error) }
        }
        switch kind {
        case .nqoe:
            if let (key, _) = weights.dropLast().first(where: { $0.1 != nil }) {
                throw .invalid("\(key) does not apply to nqoe, whose weights come from the ladder and latency; only switch_penalty (µ) changes")
            }
            guard profile.liveSettings != nil else { throw .invalid("the nqoe model scores live sessions; use it with profile live, not \(profile.name)") }
            return .wholeSession(QoEModel(kind: .nqoe, smoothnessPenalty: options.switch_penalty ?? QoEModel.nqoeSwitchPenalty))
        case .sabre:
            if options.rebuffer_penalty != nil { throw .invalid("the sabre model's rebuffer weight is gamma_p") }
            if options.switch_penalty != nil { throw .invalid("switch_penalty is the nqoe model's µ; use smoothness_penalty with sabre") }
            return .wholeSession(QoEModel(kind: .sabre, smoothnessPenalty: options.smoothness_penalty, gammaP: options.gamma_p ?? 5))
        case .linear, .log, .hd:
            if options.switch_penalty != nil { throw .invalid("switch_penalty is the nqoe model's µ; use smoothness_penalty with \(name)") }
            return .perSegment(QoEModel(
                kind: kind, rebufferPenalty: options.rebuffer_penalty, smoothnessPenalty: options.smoothness_penalty, gammaP: options.gamma_p ?? 5
            ))
        }
    }
}
