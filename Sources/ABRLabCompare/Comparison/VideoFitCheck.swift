import ABRLab
import Foundation

/// Asks every strategy row, before any session runs, whether it can play the run's video at
/// all (a model's action count, a ladder it requires). A row that cannot would only fail every
/// session: when it was named on the command line the run is refused with its reason; when it
/// came from a folder (`--strategies Strategies`) it is left out with a warning line.
public enum VideoFitCheck {
    public struct Outcome {
        /// The rows that run, in their order.
        var kept: [StrategyDescriptor]
        /// One line per row left out.
        var warnings: [InputWarning]
    }

    /// `arguments` are the `--strategies` arguments (and the baseline): a row whose strategy one
    /// of them names, not through a folder, is explicit.
    public static func check(
        _ descriptors: [StrategyDescriptor], arguments: [String], setting: RunSetting
    ) throws -> Outcome {
        let explicit = Set(arguments.filter { !isFolder($0) }.map { strategyID(ofRow: StrategyResolver.strategyID(forArgument: $0)) })
        var outcome = Outcome(kept: [], warnings: [])
        for descriptor in descriptors {
            guard case .unfit(let reason) = try descriptor.fit(setting) else {
                outcome.kept.append(descriptor)
                continue
            }
            let file = descriptor.source == "native" ? descriptor.id : descriptor.source
            let what = "cannot play the video \(setting.video.name): \(reason)"
            guard !explicit.contains(strategyID(ofRow: descriptor.id)) else {
                throw InputError(file: file, what)
            }
            outcome.warnings.append(InputWarning(file: file, "'\(descriptor.id)' is skipped: it \(what)"))
        }
        if outcome.kept.isEmpty, let first = outcome.warnings.first {
            throw InputError(file: first.file, "no strategy of the run can play the video: \(first.message)")
        }
        return outcome
    }

    /// The strategy a row of a sweep belongs to: `bola[gp=3]` is `bola`.
    public static func strategyID(ofRow id: String) -> String {
        String(id.prefix { $0 != "[" })
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
