import ABRLab
import ABRLabCompare

extension StrategyResolver {
    /// The strategies `arguments` name, each warning printed once on stderr.
    func resolve(_ arguments: [String], baseline: String? = nil) throws -> [StrategyDescriptor] {
        let (descriptors, warnings) = try resolveWithWarnings(arguments, baseline: baseline)
        warnings.forEach { CommandFailure.warn($0.commandLineText) }
        return descriptors
    }

    /// The one strategy `argument` names (no sweep), its warnings printed.
    func resolveOne(_ argument: String) throws -> StrategyDescriptor {
        let (descriptor, warnings) = try resolveOneWithWarnings(argument)
        warnings.forEach { CommandFailure.warn($0.commandLineText) }
        return descriptor
    }
}
