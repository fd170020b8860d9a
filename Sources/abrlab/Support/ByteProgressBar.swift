import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A one-line download bar on stderr (bytes done of total, rate), drawn only when stderr is a terminal.
struct ByteProgressBar {
    let label: String
    let enabled: Bool
    private let start = Date()
    private var lastDraw = Date.distantPast

    init(label: String, quiet: Bool) {
        self.label = label
        enabled = !quiet && isatty(STDERR_FILENO) == 1
    }

    mutating func update(done: Int, total: Int) {
        guard enabled else { return }
        let now = Date()
        guard done >= total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let rate = Double(done) / max(now.timeIntervalSince(start), 1e-6)
        let width = 30
        let filled = total > 0 ? min(width, width * done / total) : width
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        Console.error("\r\(label) [\(bar)] \(DatasetText.size(done))/\(DatasetText.size(total))  \(DatasetText.size(Int(rate)))/s ")
    }

    /// Ends the bar's line.
    func finish() {
        if enabled { Console.error("\n") }
    }
}
