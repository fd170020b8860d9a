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
        subcommands: [Compare.self, Merge.self, Diff.self, Run.self, Replay.self, Export.self, Strategies.self, Traces.self, Videos.self, Datasets.self, Reproduce.self]
    )

    static func main() {
        InterruptCleanup.install()
        if let message = CommandLineArguments.invalidUTF8Message() {
            Foundation.exit(CommandFailure.exit(message).rawValue)
        }
        let status = execute(Array(CommandLine.arguments.dropFirst()))
        InterruptCleanup.holdIfInterrupted()
        // C's exit flushes stdout, as ArgumentParser's own exit did.
        Foundation.exit(status)
    }

    /// Parses and runs one command line, its output on ``Console/current``, and returns the exit
    /// status: the whole of the command-line tool but the process (tests run it in process).
    static func execute(_ rawArguments: [String]) -> Int32 {
        let arguments = CommandLineArguments.joiningNegativeNumbers(rawArguments)
        var command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            // Help, version and completion scripts as ArgumentParser prints them; a mistake in
            // one line, as every other bad input.
            let code = exitCode(for: error)
            guard code != .success else {
                Console.print(fullMessage(for: error))
                return code.rawValue
            }
            Console.error("abrlab: \(message(for: error))\n")
            return code.rawValue
        }
        do {
            try CommandLineArguments.refuseRepeatedOptions(arguments, command: type(of: command))
            try command.run()
            return 0
        } catch let error as ExitCode {
            return error.rawValue
        } catch let error as InputError {
            return CommandFailure.exit(error.commandLineText).rawValue
        } catch {
            // As ArgumentParser's own exit: help (a command of its own) on stdout, the rest on stderr.
            let message = fullMessage(for: error)
            let code = exitCode(for: error)
            if code == .success {
                Console.print(message)
            } else if !message.isEmpty {
                Console.error(message + "\n")
            }
            return code.rawValue
        }
    }
}
