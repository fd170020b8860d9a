import ABRLab
import ABRLabCompare
import ABRLabDatasets
import ABRLabFormats
import Foundation

/// One strategy over one trace, as `run`, `replay` and `export` play it.
enum SingleSession {
    static func plan(strategy: String, traces: [String], options: ExperimentOptions) throws -> ExperimentPlan {
        let settings = try options.settings()
        let descriptor = try settings.strategyResolver().resolveOne(strategy)
        let reader = try settings.traceSetResolver()
        var loaded: [NetworkTrace] = []
        for argument in traces {
            // `pensieve/test/norway_bus_1`: one file of a fetched dataset.
            let path = try DatasetInput.path(argument)
            try TraceSetResolver.refuseSpecialFile(path)
            let result = try TraceLoader.load(URL(fileURLWithPath: path), format: reader.format, options: reader.options)
            result.warnings.forEach { CommandFailure.warn($0.commandLineText) }
            loaded.append(result.trace)
        }
        let plan = ExperimentPlan(
            strategies: [descriptor], traces: loaded, video: try options.resolveVideo(),
            emulator: try settings.resolveEmulator(), qoe: try settings.resolveQoE(), seed: settings.seed,
            customQoE: try settings.resolveScriptedQoE()
        )
        try plan.validate()
        // Named on the command line, a strategy that cannot play the video is refused.
        _ = try VideoFitCheck.check([descriptor], arguments: [strategy], setting: RunSetting(emulator: plan.emulator, video: plan.video))
        if let warning = settings.pensieveShapeWarning(plan) { CommandFailure.warn(warning.commandLineText) }
        return plan
    }

    static func run(strategy: String, trace: String, options: ExperimentOptions) throws -> (ExperimentPlan, SessionOutcome) {
        let plan = try plan(strategy: strategy, traces: [trace], options: options)
        return (plan, plan.runSession(index: 0))
    }
}
