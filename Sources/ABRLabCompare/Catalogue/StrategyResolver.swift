import ABRLab
import ABRLabDatasets
import ABRLabLua
import Foundation

/// Turns `--strategies` arguments into strategy descriptors: native ids, Lua scripts and
/// folders of scripts, in the order given (a folder's scripts in id order).
public struct StrategyResolver {
    /// Native strategies by id.
    public static let native: [StrategyDescriptor] = [
        .conservative, .bufferBased, .robustMPC, .pensieve(defaultModelPath: Defaults.pensieveModel),
        .genet(defaultModelPath: Defaults.genetModel), .mlp,
        .sabreBOLA, .sabreBOLAE, .sabreDynamic, .sabreDynamicDash, .sabreThroughput,
    ] + StrategyDescriptor.dashjsRuleSets
    public static var nativeIDs: String { native.map(\.id).joined(separator: ", ") }

    /// `--param` values by strategy id; a sweep turns one strategy into several rows.
    public var params: ParamAssignments
    public var luaLimits: LuaLimits = .default
    /// Tracebacks in Lua errors and `print` from scripts.
    public var verbose = false

    public init(params: ParamAssignments, luaLimits: LuaLimits = .default, verbose: Bool = false) {
        self.params = params
        self.luaLimits = luaLimits
        self.verbose = verbose
    }

    /// A native id named explicitly wins over a script of the same id found in a folder (the
    /// default run names `Strategies/` and `conservative`, and `conservative.lua` plays exactly
    /// like the native one); naming both explicitly is an error. A script shadowed that way is
    /// returned as a warning. `baseline`, when not among the strategies, is added to them.
    public func resolveWithWarnings(
        _ arguments: [String], baseline: String? = nil
    ) throws -> (descriptors: [StrategyDescriptor], warnings: [InputWarning]) {
        let explicitNative = Set(arguments.filter { id in Self.native.contains { $0.id == id } })
        var shadowing = ShadowReport()
        var descriptors: [StrategyDescriptor] = []
        for argument in arguments {
            descriptors += try self.descriptors(for: argument, explicitNative: explicitNative, shadowing: &shadowing)
        }
        // A baseline may name one row of a sweep, `bola[gp=3]`: its strategy is `bola`.
        let baselineStrategy = baseline.map { Self.strategyID(forArgument: String($0.prefix { $0 != "[" })) }
        if let baseline, let baselineStrategy, !descriptors.contains(where: { $0.id == baselineStrategy }) {
            descriptors += try self.descriptors(for: baseline, explicitNative: explicitNative, shadowing: &shadowing)
        }
        descriptors = try Self.oneAlgorithmPerID(descriptors)
        for id in params.strategyIDs {
            guard descriptors.contains(where: { $0.id == id }) else {
                let subject: InputError.Subject = params.keys[id] == nil ? params.grid.map { .file($0.file) } ?? .settings([.param]) : .settings([.param])
                throw InputError(subject, "no strategy with id '\(id)' is being run")
            }
        }
        return (try rows(of: descriptors), shadowing.warnings)
    }

    /// `descriptors` with a strategy named twice (a script by id, file or folder) kept once; two
    /// different algorithms under one id — two script files, or a script and a native strategy —
    /// are an error, as their results could not be told apart.
    public static func oneAlgorithmPerID(_ descriptors: [StrategyDescriptor]) throws(InputError) -> [StrategyDescriptor] {
        var kept: [StrategyDescriptor] = []
        for descriptor in descriptors {
            guard let first = kept.first(where: { $0.id == descriptor.id }) else {
                kept.append(descriptor)
                continue
            }
            let same = first.source == descriptor.source
                || (first.source != "native" && descriptor.source != "native"
                    && LuaStrategyLoader.canonicalPath(first.source) == LuaStrategyLoader.canonicalPath(descriptor.source))
            guard !same else { continue }
            if first.source == "native" || descriptor.source == "native" {
                throw InputError(
                    file: first.source == "native" ? descriptor.source : first.source,
                    "has the id of the native strategy '\(descriptor.id)', which this run also names; one id runs one algorithm in a run: name one of them"
                )
            }
            throw InputError(
                file: descriptor.source,
                "has the id '\(descriptor.id)' of \(first.source), a different script; one id runs one algorithm in a run: rename one of them"
            )
        }
        return kept
    }

    /// Resolves one strategy for commands that play single sessions, where a sweep has no place.
    public func resolveOneWithWarnings(_ argument: String) throws -> (descriptor: StrategyDescriptor, warnings: [InputWarning]) {
        let (descriptors, warnings) = try resolveWithWarnings([argument])
        guard descriptors.count == 1 else {
            throw InputError(setting: .param, "a parameter sweep runs several settings; use abrlab compare for it")
        }
        return (descriptors[0], warnings)
    }
}
