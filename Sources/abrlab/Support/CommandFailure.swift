import ABRLab
import ArgumentParser
import Foundation

/// Prints one clear error line and exits non-zero, instead of ArgumentParser's usage dump.
enum CommandFailure {
    static func exit(_ message: String, code: Int32 = 1) -> ExitCode {
        Console.error("abrlab: \(message)\n")
        return ExitCode(code)
    }

    /// Runs `body`, turning known input errors into one line on stderr and exit code 1.
    static func guarding<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ExitCode {
            throw error
        } catch {
            throw exit(text(of: error))
        }
    }

    /// The error's line as the command line says it: settings named by their options.
    static func text(of error: any Error) -> String {
        switch error {
        case let error as InputError: error.commandLineText
        case let error as EmulationError: error.commandLineText
        default: String(describing: error)
        }
    }

    static func warn(_ message: String) {
        Console.error("abrlab: \(message)\n")
    }
}
