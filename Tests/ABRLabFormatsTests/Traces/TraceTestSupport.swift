import ABRLab
import ABRLabFormats

/// Shared helpers for the trace loader tests.
enum TraceTestSupport {
    /// The error `TraceLoader.parse` throws for `text`, or nil when it loads.
    static func parseError(_ text: String, file: String, format: TraceFormat? = nil, options: TraceLoadOptions = .init()) -> InputError? {
        do {
            _ = try TraceLoader.parse(text, file: file, format: format, options: options)
            return nil
        } catch {
            return error
        }
    }
}
