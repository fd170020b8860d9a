import ABRLab
import ArgumentParser
import Foundation

extension Bench {
    /// Runs `body`, turning an error into one line on stderr and exit code 1.
    static func guarding(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ExitCode {
            throw error
        } catch {
            try? FileHandle.standardError.write(contentsOf: Data("abrlab-bench: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
