import ABRLab
import ABRLabCompare
import ABRLabDatasets
import ABRLabLua
import ABRLabSettings
import ArgumentParser
import Foundation

extension Abrlab {
    struct StrategiesCheck: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Load scripts (or native ids) and exercise each on short generated traces.",
            discussion: """
                Runs the conformance checks every strategy must pass: levels in range, the same seed gives the \
                same session, and links that deliver nothing end with a clear error instead of a hang. \
                Sessions run under the default, sabre and live profiles (and --profile's), so every hook runs \
                under the profile that calls it: check_abandon and on_wait under sabre (an abandonment must go to a lower level, \
                and no segment may be abandoned 1000 times), choose's playback rate under live. \
                A folder checks every strategy script in it. Prints the levels chosen per trace, each line \
                naming the file; a script that fails to load is reported and the others are still checked. \
                Exits non-zero when any check fails.

                Examples:
                  abrlab strategies check Strategies/_template.lua
                  abrlab strategies check Strategies my_rules/ bba-native
                  abrlab strategies check dashjs dashjs/bola --profile dashjs
                """
        )

        @Argument(help: ArgumentHelp("Lua scripts, folders of them, native ids or ids of scripts in Strategies/.", valueName: "strategy"))
        var strategies: [String]

        @Option(name: .setting(.param), help: .setting(.param, in: "strategies check"))
        var params: [String] = []

        @Flag(name: .setting(.verbose), help: .setting(.verbose, in: "strategies check"))
        var verbose = false

        @Option(name: .setting(.profile), help: .setting(.profile, in: "strategies check"))
        var profile: String?

        func run() throws {
            try CommandFailure.guarding {
                guard !strategies.isEmpty else { throw InputError(file: "check", "name at least one script, folder or native id") }
                var given: [Setting: SettingValue] = [.video: .text(Defaults.video), .verbose: .flag(verbose)]
                if !params.isEmpty { given[.param] = .texts(params) }
                let resolver = try ExperimentSettings(given: given).strategyResolver()
                var conformance = try StrategyConformance()
                if let name = try Setting.profile.value(profile)?.text, let extra = EmulationProfile.named(name),
                   !([conformance.emulator.profile] + conformance.otherProfiles).contains(where: { $0.name == name }) {
                    conformance.otherProfiles.append(extra)
                }
                var checked: [String] = []
                var failed: [String] = []
                for argument in strategies {
                    for target in try Self.targets(argument, resolver: resolver) {
                        checked.append(target.label)
                        if !Self.check(target, resolver: resolver, conformance: conformance) { failed.append(target.label) }
                    }
                }
                guard failed.isEmpty else {
                    let which = checked.count == 1 ? "" : " (\(failed.count) of \(checked.count) strategies: \(failed.joined(separator: ", ")))"
                    throw CommandFailure.exit("checks failed\(which)")
                }
                if checked.count > 1 { Console.print("all \(checked.count) strategies passed") }
            }
        }

        /// One thing to check: how results name it and the argument that resolves to it.
        struct Target {
            var label: String
            var argument: String
        }

        /// A folder becomes each of its strategy scripts, so one bad script cannot hide the others.
        /// A script in a folder whose name starts with `_` is still checked when named directly.
        static func targets(_ argument: String, resolver: StrategyResolver) throws -> [Target] {
            if StrategyResolver.native.contains(where: { $0.id == argument }) {
                return [Target(label: "\(argument) (native)", argument: argument)]
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue else {
                let path = FileManager.default.fileExists(atPath: argument) ? argument : StrategyResolver.defaultScriptPath(id: argument) ?? argument
                return [Target(label: path, argument: path)]
            }
            let paths = try resolver.luaLoader.scriptPaths(folder: argument)
            guard !paths.isEmpty else { throw InputError(file: argument, "the folder holds no strategy scripts (*.lua)") }
            return paths.map { Target(label: $0, argument: $0) }
        }

        /// Loads and checks one strategy, printing what it chose; false when anything failed.
        static func check(_ target: Target, resolver: StrategyResolver, conformance: StrategyConformance) -> Bool {
            let descriptor: StrategyDescriptor
            do {
                descriptor = try resolver.resolveOne(target.argument)
            } catch {
                CommandFailure.warn(CommandFailure.text(of: error))
                return false
            }
            let report = conformance.check(descriptor)
            for (trace, levels) in report.levelsByTrace {
                Console.print("\(target.label): \(trace): levels \(levels.map { String($0 + 1) }.joined(separator: " "))")
            }
            guard report.passed else {
                for finding in report.findings { CommandFailure.warn("\(target.label): \(finding)") }
                CommandFailure.warn("\(target.label): \(report.findings.count) check(s) failed")
                return false
            }
            Console.print("\(target.label): all checks passed")
            return true
        }
    }
}
