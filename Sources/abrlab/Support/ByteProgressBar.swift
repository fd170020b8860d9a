import Foundation

/// A one-line download bar on stderr (bytes done of total, rate), drawn only when stderr is a terminal.
struct ByteProgressBar {
    let label: String
    private var bar: TerminalBar

    init(label: String, quiet: Bool) {
        self.label = label
        bar = TerminalBar(quiet: quiet)
    }

    mutating func update(done: Int, total: Int) {
        guard let (cells, elapsed) = bar.cells(done: done, total: total) else { return }
        let rate = Double(done) / elapsed
        Console.error("\r\(label) [\(cells)] \(DatasetText.size(done))/\(DatasetText.size(total))  \(DatasetText.size(Int(rate)))/s ")
    }

    /// Ends the bar's line.
    func finish() {
        if bar.enabled { Console.error("\n") }
    }
}
