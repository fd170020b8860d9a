import ABRLab
import ABRLabDatasets
import ABRLabFormats
import ABRLabLua
import Foundation

/// The settings every emulating command shares (the video, the profile and its options, the
/// QoE model, segment count, seed, strategy parameters and Lua limits) as plain values, and
/// what they resolve to. Each front end fills them from its own vocabulary (the command line's
/// options, a Python environment's keywords); errors name a ``Setting``.
public struct ExperimentSettings: Sendable {
    /// The settings given, by key; an absent one takes its declared default (``Setting/declaration``).
    public private(set) var given: [Setting: SettingValue] = [:]

    public init() {}

    /// Settings as a front end gives them, each checked once against its declaration: its kind,
    /// then its range.
    public init(given: [Setting: SettingValue]) throws(InputError) {
        for setting in Setting.allCases {
            guard let value = given[setting] else { continue }
            try setting.declaration.check(value, as: setting)
        }
        self.given = given
    }

    /// The given value, else the declared default.
    public subscript(setting: Setting) -> SettingValue? {
        get { given[setting] ?? setting.declaration.fixedDefault }
        set { given[setting] = newValue }
    }

    /// A setting read by its kind: what the code that applies a setting calls, so a new setting
    /// needs no accessor of its own. Nil when neither given nor declared with a fixed default.
    public func number(_ setting: Setting) -> Double? { self[setting]?.number }
    public func integer(_ setting: Setting) -> Int? { self[setting]?.integer }
    public func text(_ setting: Setting) -> String? { self[setting]?.text }
    /// A flag: off unless given on.
    public func flag(_ setting: Setting) -> Bool { self[setting]?.flag ?? false }

    /// A setting the table declares a fixed default for, given or not: the value comes from the
    /// table, never restated here (`SettingTableTests` holds each such default to its kind and range).
    private func declared<Value>(_ setting: Setting, _ kind: (SettingValue) -> Value?) -> Value {
        guard let value = self[setting].flatMap(kind) else { preconditionFailure("the table declares \(setting)'s default of its kind") }
        return value
    }

    public var video: String { get { given[.video]?.text ?? Defaults.video } set { self[.video] = .text(newValue) } }
    public var ladderKbps: [Double]? { get { self[.ladderKbps]?.numbers } set { self[.ladderKbps] = newValue.map(SettingValue.numbers) } }
    public var segmentDurationSeconds: Double? { get { self[.segmentDurationS]?.number } set { self[.segmentDurationS] = newValue.map(SettingValue.number) } }
    public var segments: Int? { get { self[.segments]?.integer } set { self[.segments] = newValue.map(SettingValue.integer) } }
    public var profile: String { get { declared(.profile, \.text) } set { self[.profile] = .text(newValue) } }
    public var targetLatencySeconds: Double? { get { self[.targetLatencyS]?.number } set { self[.targetLatencyS] = newValue.map(SettingValue.number) } }
    public var liveDurationSeconds: Double? { get { self[.liveDurationS]?.number } set { self[.liveDurationS] = newValue.map(SettingValue.number) } }
    public var warmupSeconds: Double? { get { self[.warmupS]?.number } set { self[.warmupS] = newValue.map(SettingValue.number) } }
    public var warmupKbps: Double? { get { self[.warmupKbps]?.number } set { self[.warmupKbps] = newValue.map(SettingValue.number) } }
    public var catchup: String? { get { self[.catchup]?.text } set { self[.catchup] = newValue.map(SettingValue.text) } }
    public var catchupMinDriftSeconds: Double? { get { self[.catchupMinDriftS]?.number } set { self[.catchupMinDriftS] = newValue.map(SettingValue.number) } }
    public var maxBufferSeconds: Double? { get { self[.maxBufferS]?.number } set { self[.maxBufferS] = newValue.map(SettingValue.number) } }
    public var noAbandon: Bool { get { flag(.noAbandon) } set { self[.noAbandon] = .flag(newValue) } }
    public var checkEveryStep: Bool { get { flag(.checkEveryStep) } set { self[.checkEveryStep] = .flag(newValue) } }
    public var replace: String { get { declared(.replace, \.text) } set { self[.replace] = .text(newValue) } }
    public var bandwidthMultiplier: Double { get { declared(.bandwidthMultiplier, \.number) } set { self[.bandwidthMultiplier] = .number(newValue) } }
    public var estimator: String? { get { self[.estimator]?.text } set { self[.estimator] = newValue.map(SettingValue.text) } }
    public var qoe: String { get { declared(.qoe, \.text) } set { self[.qoe] = .text(newValue) } }
    public var gammaP: Double? { get { self[.gammaP]?.number } set { self[.gammaP] = newValue.map(SettingValue.number) } }
    public var rebufferPenalty: Double? { get { self[.rebufferPenalty]?.number } set { self[.rebufferPenalty] = newValue.map(SettingValue.number) } }
    public var smoothnessPenalty: Double { get { declared(.smoothnessPenalty, \.number) } set { self[.smoothnessPenalty] = .number(newValue) } }
    public var switchPenalty: Double? { get { self[.switchPenalty]?.number } set { self[.switchPenalty] = newValue.map(SettingValue.number) } }
    public var traceFormat: String? { get { self[.traceFormat]?.text } set { self[.traceFormat] = newValue.map(SettingValue.text) } }
    public var mahimahiBinMilliseconds: Int { get { declared(.mahimahiBinMs, \.integer) } set { self[.mahimahiBinMs] = .integer(newValue) } }
    public var params: [String] { get { self[.param]?.texts ?? [] } set { self[.param] = .texts(newValue) } }
    public var paramGrid: String? { get { self[.paramGrid]?.text } set { self[.paramGrid] = newValue.map(SettingValue.text) } }
    public var seed: UInt64 { get { declared(.seed, \.seed) } set { self[.seed] = .seed(newValue) } }
    public var luaInstructions: Int { get { declared(.luaInstructions, \.integer) } set { self[.luaInstructions] = .integer(newValue) } }
    public var luaMemoryMegabytes: Int { get { declared(.luaMemoryMb, \.integer) } set { self[.luaMemoryMb] = .integer(newValue) } }
    public var verbose: Bool { get { flag(.verbose) } set { self[.verbose] = .flag(newValue) } }

    /// The limits every Lua script of the run (strategies and a QoE model) runs under.
    public func luaLimits() throws(InputError) -> LuaLimits {
        // The table's ranges hold: MiB << 20 cannot wrap around.
        try check(.luaInstructions, .luaMemoryMb)
        var limits = LuaLimits.default
        limits.instructionsPerCall = luaInstructions
        limits.memoryBytesPerEngine = luaMemoryMegabytes << 20
        return limits
    }

    /// The profile `profile` names with every option that changes it applied: the one place
    /// flags map onto ``EmulationProfile``. An option that would change nothing on the profile's
    /// mechanics is refused, as `replace` is on a profile without a segment buffer.
    public func resolveProfile() throws(InputError) -> EmulationProfile {
        // The table's check, worded as every face words a choice.
        try check(.profile)
        guard var profile = EmulationProfile.named(profile) else {
            let names = EmulationProfile.builtIn.map(\.name).joined(separator: ", ")
            throw InputError(setting: .profile, "unknown profile '\(profile)'; choose one of \(names)")
        }
        try check(.maxBufferS, .noAbandon, .checkEveryStep, .replace, .bandwidthMultiplier, .targetLatencyS, .liveDurationS, .warmupS, .warmupKbps, .catchup, .catchupMinDriftS)
        try checkMechanics(of: profile)
        if let maxBufferSeconds { profile.maxBufferSeconds = maxBufferSeconds }
        var segments = profile.segmentBufferSettings
        if noAbandon { segments?.abandonment = false }
        if checkEveryStep {
            guard segments?.abandonment == true else {
                throw InputError(setting: .checkEveryStep, "calls abandonment checks, which \(Setting.noAbandon) turns off")
            }
            segments?.honoursRechecks = false
        }
        let rule = EmulationProfile.Replacement(rawValue: replace) ?? .none
        // dash.js fetches each segment once (a refetch only after an abandonment); its rules would not hear a replacement.
        if rule != .none, segments?.player == .dashjs {
            throw InputError(setting: .replace, "replaces buffered segments, which dash.js does not (profile \(profile.name))")
        }
        segments?.replacement = rule
        segments?.bandwidthMultiplier = bandwidthMultiplier
        if let segments { profile.mechanics = .segmentBuffer(segments) }
        if let estimator {
            profile.estimator = estimator == "none" ? nil : try SettingParsing.estimator(estimator, setting: .estimator)
        }
        try profile.validate()
        if var live = profile.liveSettings {
            if let targetLatencySeconds { live.targetLatencySeconds = targetLatencySeconds }
            live.durationSeconds = liveDurationSeconds
            try live.applyWarmup(seconds: warmupSeconds, linkKbps: warmupKbps)
            try live.applyCatchup(name: catchup, minDriftSeconds: catchupMinDriftSeconds)
            try live.validate()
            profile.mechanics = .live(live)
        }
        return profile
    }

    /// The built-in model `qoe` names; `linear` when it names a Lua script, which then scores
    /// sessions instead (`resolveScriptedQoE`).
    public func resolveQoE() throws(InputError) -> QoEModel {
        try check(.qoe, .rebufferPenalty, .smoothnessPenalty, .gammaP, .switchPenalty)
        if isScriptedQoE { return .linear }
        guard let kind = QoEModel.Kind(rawValue: qoe) else {
            throw InputError(setting: .qoe, "unknown QoE model '\(qoe)'; choose linear, log, hd, sabre, nqoe or a Lua model script (.lua)")
        }
        if kind == .nqoe {
            guard rebufferPenalty == nil, smoothnessPenalty == 1, gammaP == nil else {
                throw InputError(
                    setting: rebufferPenalty != nil ? .rebufferPenalty : gammaP != nil ? .gammaP : .smoothnessPenalty,
                    "the nqoe model's weights come from the ladder and latency; only \(Setting.switchPenalty) (µ) changes"
                )
            }
            let mu = switchPenalty ?? QoEModel.nqoeSwitchPenalty
            return QoEModel(kind: .nqoe, smoothnessPenalty: mu)
        }
        if switchPenalty != nil { throw InputError(setting: .switchPenalty, "is the nqoe model's µ; use \(Setting.smoothnessPenalty) with \(qoe)") }
        if kind == .sabre, rebufferPenalty != nil {
            throw InputError(setting: .rebufferPenalty, "the sabre model's rebuffer weight is \(Setting.gammaP)")
        }
        return QoEModel(kind: kind, rebufferPenalty: rebufferPenalty, smoothnessPenalty: smoothnessPenalty, gammaP: gammaP ?? 5)
    }

    /// Whether `qoe` names a Lua model script rather than a built-in model.
    public var isScriptedQoE: Bool { QoEModel.Kind(rawValue: qoe) == nil && qoe.hasSuffix(".lua") }

    /// The Lua QoE model `qoe` names, loaded and checked; nil for a built-in model.
    public func resolveScriptedQoE() throws(InputError) -> LuaQoEModel? {
        guard isScriptedQoE else { return nil }
        guard rebufferPenalty == nil, smoothnessPenalty == 1, gammaP == nil, switchPenalty == nil else {
            throw InputError(
                    setting: rebufferPenalty != nil ? .rebufferPenalty : gammaP != nil ? .gammaP
                    : switchPenalty != nil ? .switchPenalty : .smoothnessPenalty,
                "applies to the built-in QoE models; a Lua model sets its own weights"
            )
        }
        return try LuaQoEModel(path: qoe, limits: luaLimits(), verbose: verbose)
    }

    public func resolveTraceFormat() throws(InputError) -> TraceFormat? {
        try traceFormat.map { name throws(InputError) in try SettingParsing.traceFormat(name, setting: .traceFormat) }
    }

    /// The emulator these settings describe; the one composition of it that `compare`, `run`
    /// and the Python environments share.
    public func resolveEmulator(recordsTransitions: Bool = true) throws(InputError) -> SessionEmulator {
        try check(.firstLevel)
        var emulator = SessionEmulator(profile: try resolveProfile(), segmentsToPlay: try segmentCount(), recordsTransitions: recordsTransitions)
        emulator.firstLevel = integer(.firstLevel).map { $0 - 1 }
        return emulator
    }

    /// The count of segments to play, when `segments` gives one.
    public func segmentCount() throws(InputError) -> Int? {
        try check(.segments)
        return segments
    }

    /// The video and the warnings loading it gave (an HLS master's odd variants, an MPD's ignored
    /// Adaptation Sets), for a command that records them.
    public func resolveVideoWithWarnings() throws(InputError) -> (video: Video, warnings: [InputWarning]) {
        if video == Defaults.video { try Defaults.requireExisting(video, setting: .video) }
        try check(.video, .segmentDurationS, .ladderKbps)
        let ladder = ladderKbps
        let video = try DatasetInput.path(video)
        if HLSVideoLoader.handles(video), ladder == nil, segmentDurationSeconds == nil {
            let loaded = try HLSVideoLoader.load(video)
            return (loaded.video, loaded.warnings)
        }
        if VideoLoader.handlesMPD(video), ladder == nil, segmentDurationSeconds == nil {
            let loaded = try VideoLoader.loadMPD(URL(fileURLWithPath: video))
            return (loaded.video, loaded.warnings)
        }
        return (try VideoLoader.load(video, ladderKbps: ladder, segmentDurationSeconds: segmentDurationSeconds), [])
    }

    /// The Lua settings that can change results, for the plan fingerprint.
    public var luaLimitsDescription: String { "instructions=\(luaInstructions) memory_mb=\(luaMemoryMegabytes) verbose=\(verbose)" }

    /// Checks these settings' given values against their declarations (kind, range): the one
    /// place a setting's range is enforced, whichever front end gave it.
    public func check(_ settings: Setting...) throws(InputError) {
        for setting in settings {
            if let value = given[setting] { try setting.declaration.check(value, as: setting) }
        }
    }

    /// Refuses a setting of mechanics `profile` lacks (a live setting on sabre), when it is given
    /// a value other than its default.
    func checkMechanics(of profile: EmulationProfile) throws(InputError) {
        for (setting, value) in given.sorted(by: { $0.key.index < $1.key.index }) where value != setting.declaration.fixedDefault {
            let mechanics = setting.declaration.mechanics
            let fits = switch mechanics {
            case .any: true
            case .live: profile.liveSettings != nil
            case .segmentBuffer: profile.segmentBufferSettings != nil
            }
            if !fits {
                throw InputError(setting: setting, "works on \(mechanics == .live ? "the live profiles" : "profiles with a segment buffer (sabre)") only, not on \(profile.name)")
            }
        }
    }
}
