import Foundation

/// State that threads share and wait on: the one lock of its kind in the package, a condition
/// variable, so a thread can sleep until another changes the state (``wait(for:)``). Where no
/// thread waits, a `Mutex` is enough.
package final class Monitor<State: Sendable>: @unchecked Sendable {
    // Sound: `state` is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    /// `body` on the state under the lock; threads waiting on it look again afterwards.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&state)
    }

    /// Waits until `body` gives a value, calling it under the lock each time the state changes;
    /// threads waiting on it look again afterwards.
    package func wait<Result>(for body: (inout State) -> Result?) -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        while true {
            if let result = body(&state) { return result }
            condition.wait()
        }
    }
}
