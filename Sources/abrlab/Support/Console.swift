import Foundation
import Synchronization

/// Where a command's output goes: the process's stdout and stderr, or, for a command run inside
/// another program (the tests run most commands in process), two buffers of its own. Bound per
/// task, so commands running side by side never mix their output.
final class Console: Sendable {
    @TaskLocal static var current = Console()

    private let captures: Bool
    private let captured = Mutex((out: "", err: ""))

    /// The process's own stdout and stderr.
    init() {
        captures = false
    }

    private init(capturing: Void) {
        captures = true
    }

    /// Runs `body` with its output captured; returns its result and what it printed.
    static func capturing<T>(_ body: () throws -> T) rethrows -> (result: T, stdout: String, stderr: String) {
        let console = Console(capturing: ())
        let result = try $current.withValue(console) { try body() }
        let (out, err) = console.captured.withLock { ($0.out, $0.err) }
        return (result, out, err)
    }

    /// As Swift's `print`, into this console's stdout.
    static func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
        current.write(items.map { "\($0)" }.joined(separator: separator) + terminator, error: false)
    }

    /// `text` as it is, on this console's stderr.
    static func error(_ text: String) {
        current.write(text, error: true)
    }

    private func write(_ text: String, error: Bool) {
        guard captures else {
            InterruptCleanup.holdIfInterrupted()
            if error {
                try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
            } else {
                Swift.print(text, terminator: "")
            }
            return
        }
        captured.withLock { captured in
            if error { captured.err += text } else { captured.out += text }
        }
    }
}
