import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What every progress bar shares: drawn on stderr only when it is a terminal, at most every
/// 0.1 s (and once more when done), 30 cells of `#` and `-`.
struct TerminalBar {
    let enabled: Bool
    private let start = Date()
    private var lastDraw = Date.distantPast

    init(quiet: Bool) {
        enabled = !quiet && isatty(STDERR_FILENO) == 1
    }

    /// The cells for `done` of `total` and the seconds since the bar began, or `nil` when the
    /// bar is not to be drawn now.
    mutating func cells(done: Int, total: Int) -> (cells: String, elapsedSeconds: Double)? {
        guard enabled else { return nil }
        let now = Date()
        guard done >= total || now.timeIntervalSince(lastDraw) >= 0.1 else { return nil }
        lastDraw = now
        let width = 30
        let filled = total > 0 ? min(width, width * done / total) : width
        let cells = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        return (cells, max(now.timeIntervalSince(start), 1e-6))
    }
}
