import ABRLab
import ArgumentParser
import Foundation

@main
struct Abrlab: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "abrlab",
        abstract: "Trace-driven adaptive-bitrate streaming experiments.",
        discussion: """
            abrlab emulates video streaming sessions over recorded or synthetic network traces, \
            runs bitrate strategies (native Swift or Lua scripts) and scores their quality of experience.

            Example:
              abrlab compare
            """,
        version: ABRLabVersion.current,
        subcommands: [Compare.self, Merge.self, Diff.self, Run.self, Replay.self, Export.self, Strategies.self, Traces.self, Videos.self]
    )

    static func main() {
        InterruptCleanup.install()
        let arguments = CommandLineArguments.joiningNegativeNumbers(Array(CommandLine.arguments.dropFirst()))
        var command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            // Help, version and completion scripts as ArgumentParser prints them; a mistake in
            // one line, as every other bad input.
            let code = exitCode(for: error)
            guard code != .success else { exit(withError: error) }
            FileHandle.standardError.write(Data("abrlab: \(message(for: error))\n".utf8))
            Foundation.exit(code.rawValue)
        }
        do {
            try CommandLineArguments.refuseRepeatedOptions(arguments, command: type(of: command))
        } catch {
            exit(withError: CommandFailure.exit(error.description))
        }
        do {
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}
