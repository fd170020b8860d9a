import Foundation

/// A one-line progress bar on stderr (done/total, rate, ETA), drawn only when stderr is a terminal.
struct ProgressBar {
    let total: Int
    private var bar: TerminalBar

    init(total: Int, quiet: Bool) {
        self.total = total
        bar = TerminalBar(quiet: quiet)
    }

    mutating func update(done: Int) {
        guard let (cells, elapsed) = bar.cells(done: done, total: total) else { return }
        let rate = Double(done) / elapsed
        let eta = rate > 0 ? Double(total - done) / rate : 0
        Console.error("\r[\(cells)] \(done)/\(total)  " + String(format: "%.0f sessions/s  ETA %.1fs ", rate, eta))
        if done == total { Console.error("\n") }
    }
}
