import ABRLab
import ABRLabLua
import Foundation

/// Turns `--strategies` arguments into strategy descriptors: native ids, Lua scripts and
/// folders of scripts, in the order given (a folder's scripts in id order).
struct StrategyResolver {
    /// Native strategies by id.
    static let native: [StrategyDescriptor] = [
        .conservative, .bufferBased, .robustMPC, .pensieve(defaultModelPath: Defaults.pensieveModel),
    ]
    static var nativeIDs: String { native.map(\.id).joined(separator: ", ") }

    /// `--param` values by strategy id; a sweep turns one strategy into several rows.
    var params: ParamAssignments
    var luaLimits: LuaLimits = .default
    /// Tracebacks in Lua errors and `print` from scripts.
    var verbose = false

    /// A native id named explicitly wins over a script of the same id found in a folder (the
    /// default run names `Strategies/` and `conservative`, and `conservative.lua` plays exactly
    /// like the native one); naming both explicitly is an error. A script shadowed that way is
    /// reported once on stderr. `baseline`, when not among the strategies, is added to them.
    func resolve(_ arguments: [String], baseline: String? = nil) throws -> [StrategyDescriptor] {
        let (descriptors, warnings) = try resolveWithWarnings(arguments, baseline: baseline)
        warnings.forEach { CommandFailure.warn($0.description) }
        return descriptors
    }

    /// `resolve`, returning the warnings instead of printing them, so a command can print them
    /// only once its input is known to be good.
    func resolveWithWarnings(
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
        var seen = Set<String>()
        for descriptor in descriptors where !seen.insert(descriptor.id).inserted {
            throw InputError(file: descriptor.source, "strategy id '\(descriptor.id)' appears twice")
        }
        for id in params.strategyIDs {
            guard descriptors.contains(where: { $0.id == id }) else {
                let file = params.keys[id] == nil ? params.grid?.file ?? "--param" : "--param"
                throw InputError(file: file, "no strategy with id '\(id)' is being run")
            }
        }
        return (try rows(of: descriptors), shadowing.warnings)
    }

    /// Resolves one strategy for commands that play single sessions, where a sweep has no place.
    func resolveOne(_ argument: String) throws -> StrategyDescriptor {
        let descriptors = try resolve([argument])
        guard descriptors.count == 1 else {
            throw InputError(file: "--param", "a parameter sweep runs several settings; use abrlab compare for it")
        }
        return descriptors[0]
    }
}
