import ABRLab
import ArgumentParser

extension Abrlab {
    struct StrategiesCheck: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Load a script (or native id) and exercise it on short generated traces.",
            discussion: """
                Runs the conformance checks every strategy must pass: levels in range, the same seed gives the \
                same session, and links that deliver nothing end with a clear error instead of a hang. \
                Prints the levels chosen per trace; exits non-zero when a check fails.

                Example:
                  abrlab strategies check Strategies/_template.lua
                """
        )

        @Argument(help: "A Lua script or a native id.")
        var strategy: String

        @Option(name: .customLong("param"), help: ArgumentHelp("Override a parameter (repeatable).", valueName: "id.key=value"))
        var params: [String] = []

        @Flag(help: "Show Lua tracebacks and let the script print to stderr.")
        var verbose = false

        func run() throws {
            try CommandFailure.guarding {
                var options = try ExperimentOptions.parse(params.flatMap { ["--param", $0] } + (verbose ? ["--verbose"] : []))
                options.video = Defaults.video
                // A script in a folder whose name starts with `_` is still checked when named directly.
                let descriptor = try options.strategyResolver().resolveOne(strategy)
                let report = try StrategyConformance().check(descriptor)
                for (trace, levels) in report.levelsByTrace {
                    print("\(trace): levels \(levels.map { String($0 + 1) }.joined(separator: " "))")
                }
                if report.passed {
                    print("\(descriptor.id): all checks passed")
                } else {
                    for finding in report.findings { CommandFailure.warn("\(descriptor.id): \(finding)") }
                    throw CommandFailure.exit("\(descriptor.id): \(report.findings.count) check(s) failed")
                }
            }
        }
    }
}
