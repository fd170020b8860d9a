import Foundation

/// Where a command's output goes: the process's stdout and stderr, or, for a command run inside
/// another program (the tests run most commands in process), two buffers of its own. Bound per
/// task, so commands running side by side never mix their output.
final class Console: @unchecked Sendable {
    @TaskLocal static var current = Console()

    private let captures: Bool
    private let lock = NSLock()
    private var out = ""
    private var err = ""

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
        return console.lock.withLock { (result, console.out, console.err) }
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
            if error {
                FileHandle.standardError.write(Data(text.utf8))
            } else {
                Swift.print(text, terminator: "")
            }
            return
        }
        lock.withLock {
            if error { err += text } else { out += text }
        }
    }
}
