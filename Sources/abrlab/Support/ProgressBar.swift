import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress bar on stderr (done/total, rate, ETA), drawn only when stderr is a terminal.
struct ProgressBar {
    let total: Int
    let enabled: Bool
    private let start = Date()
    private var lastDraw = Date.distantPast

    init(total: Int, quiet: Bool) {
        self.total = total
        enabled = !quiet && isatty(STDERR_FILENO) == 1
    }

    mutating func update(done: Int) {
        guard enabled else { return }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let elapsed = max(now.timeIntervalSince(start), 1e-6)
        let rate = Double(done) / elapsed
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let width = 30
        let filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let line = "\r[\(bar)] \(done)/\(total)  " + String(format: "%.0f sessions/s  ETA %.1fs ", rate, eta)
        Console.error(line)
        if done == total { Console.error("\n") }
    }
}
