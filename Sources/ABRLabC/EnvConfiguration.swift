import ABRLab
import ABRLabCompare
import ABRLabDatasets
import ABRLabFormats
import ABRLabLua
import ABRLabSettings
import Foundation

/// What every session of an environment shares: the emulator, the video, the traces and the
/// QoE model, resolved from ``EnvOptions`` once, by the same ``ExperimentSettings`` and
/// ``TraceSetResolver`` as `abrlab compare`. A class: a step hands it on as one reference, not
/// as a copy of its many.
final class EnvConfiguration: Sendable {
    let emulator: SessionEmulator
    let video: Video
    /// Sorted by name, as `abrlab compare` orders its sessions.
    let traces: [NetworkTrace]
    let scoring: EnvScoring
    /// The run seed that session seeds derive from, as `abrlab compare --seed`.
    let seed: UInt64
    /// The strategy id sessions are named by (in errors and in their derived seeds).
    let strategyID: String
    /// The video's ladder, held here so a step's score borrows it instead of retaining the
    /// video's copy, whose count every session on every worker thread would touch.
    let ladder: [BitrateLevel]
    /// The ladder's top bitrate, which Pensieve's state divides by.
    let topKbps: Double
    /// The strategies that follow every session as experts (``EnvExperts``).
    let experts: [StrategyDescriptor]

    var levelCount: Int { video.levelCount }

    init(_ options: EnvOptions) throws(EnvError) {
        let settings = options.settings
        guard options.video != nil else { throw .setting("video: no video given", keywords: ["video"]) }
        do {
            // compare's order: the traces, then the video, the emulator and the QoE model
            // through the composition root they share, then the strategies' fit.
            traces = try Self.traces(options, settings: settings)
            let sessions = try Self.sessions(settings)
            (emulator, video) = (sessions.emulator, sessions.video)
            scoring = try Self.scoring(sessions)
            experts = try Self.experts(options.experts ?? [], settings: settings, setting: RunSetting(emulator: emulator, video: video))
        } catch let error as EnvError {
            throw error
        } catch let error as InputError {
            throw EnvError(error)
        } catch let error as EmulationError {
            throw EnvError(error, strategyID: options.strategy_id ?? "env", trace: nil)
        } catch {
            throw .invalid(String(describing: error))
        }
        ladder = video.ladder
        topKbps = ladder.map(\.bitrateKbps).max() ?? 1
        seed = settings.seed
        strategyID = options.strategy_id ?? "env"
        // The settings the video does not fit, named as compare names them by flag.
        do { try emulator.validate(video: video) } catch { throw EnvError(error, strategyID: strategyID, trace: nil) }
    }

    /// The session seed of `trace`, derived as `abrlab compare` derives it for `strategyID`.
    func sessionSeed(trace: Int) -> UInt64 {
        SessionSeed.derive(seed: seed, strategyID: strategyID, traceName: traces[trace].name)
    }

    /// The sessions' video, emulator and QoE model, files that are not there named as missing.
    private static func sessions(_ settings: ExperimentSettings) throws -> ResolvedSessions {
        // A dataset id not fetched is a missing file, with the command that fetches it.
        let spec: String
        do { spec = try DatasetInput.path(settings.video) } catch { throw EnvError.notFound(error.description, file: error.file) }
        let named = VideoPreset(rawValue: spec) != nil || spec.lowercased().hasPrefix("cbr:") || spec == AudioFormatPreset.name
        if !named, !FileManager.default.fileExists(atPath: spec) { throw EnvError.notFound("\(spec): no such video file or folder", file: spec) }
        if settings.isScriptedQoE, !FileManager.default.fileExists(atPath: settings.qoe) {
            throw EnvError.notFound("\(settings.qoe): no such QoE script", file: settings.qoe)
        }
        return try settings.resolveSessions(recordsTransitions: false)
    }

    private static func traces(_ options: EnvOptions, settings: ExperimentSettings) throws -> [NetworkTrace] {
        guard let arguments = options.traces, !arguments.isEmpty else { throw EnvError.setting("traces: no traces given", keywords: ["traces"]) }
        for argument in arguments where !argument.contains(where: { "*?[".contains($0) }) {
            let path: String
            do { path = try TraceSetResolver.path(argument) } catch { throw EnvError.notFound(error.description, file: error.file) }
            guard FileManager.default.fileExists(atPath: path) else { throw EnvError.notFound("\(argument): no such trace file or folder", file: argument) }
        }
        return try settings.traceSetResolver().load(arguments).traces
    }

    /// The experts' strategies, resolved as compare resolves `--strategies` (native ids, ids of
    /// the shipped scripts, script files) with `params` applied; each must fit the video.
    private static func experts(_ arguments: [String], settings: ExperimentSettings, setting: RunSetting) throws -> [StrategyDescriptor] {
        guard !arguments.isEmpty else {
            if !settings.params.isEmpty { throw EnvError.setting("params: parameters are for experts; name the strategies in experts", keywords: ["params", "experts"]) }
            return []
        }
        let (descriptors, _) = try settings.strategyResolver().resolveWithWarnings(arguments)
        guard descriptors.count == Set(arguments.map(StrategyResolver.strategyID(forArgument:))).count else {
            throw EnvError.setting("params: a list of values sweeps a parameter; give each expert one value", keywords: ["params"])
        }
        for descriptor in descriptors {
            if case .unfit(let reason) = try descriptor.fit(setting) {
                throw EnvError.setting("experts: \(descriptor.id) cannot play this video: \(reason)", keywords: ["experts"])
            }
        }
        return descriptors
    }

    private static func scoring(_ sessions: ResolvedSessions) throws -> EnvScoring {
        if let script = sessions.customQoE { return .script(script) }
        let (model, profile) = (sessions.qoe, sessions.emulator.profile)
        try model.validate(ladder: sessions.video.ladder, profile: profile)
        switch model.kind {
        case .nqoe, .sabre: return .wholeSession(model)
        case .linear, .log, .hd: return profile.liveSettings?.warmup == nil ? .perSegment(model) : .wholeSession(model)
        }
    }
}
