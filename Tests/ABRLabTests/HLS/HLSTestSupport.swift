import ABRLab
import Foundation
import Testing

/// Helpers shared by the HLS suites.
enum HLSTestSupport {
    /// The one-line description of the error `body` throws, or nil when it succeeds.
    static func error<T>(_ body: () throws(InputError) -> T) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.description
        }
    }

    /// A playlist's lines joined with newlines, so tests can count lines.
    static func text(_ lines: [String]) -> String { lines.joined(separator: "\n") + "\n" }

    static func date(_ text: String) throws -> Date {
        try #require(HLSDateTime.parse(text))
    }
}
