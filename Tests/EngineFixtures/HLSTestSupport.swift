import ABRLab
import ABRLabFormats
import Foundation
import Testing

/// Helpers shared by the HLS suites.
public enum HLSTestSupport {
    /// The one-line description of the error `body` throws, or nil when it succeeds.
    public static func error<T>(_ body: () throws(InputError) -> T) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.description
        }
    }

    /// A playlist's lines joined with newlines, so tests can count lines.
    public static func text(_ lines: [String]) -> String { lines.joined(separator: "\n") + "\n" }

    public static func date(_ text: String) throws -> Date {
        try #require(HLSDateTime.parse(text))
    }
}
