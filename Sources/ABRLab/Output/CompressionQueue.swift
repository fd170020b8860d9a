import Foundation

/// Blocks of compressed files on their way to the disk, compressed on whichever thread gets to
/// them first: the run's workers between sessions (``compressWaiting()``), or the writer when it
/// needs a block no worker has started. The writer takes each block back in the order it
/// submitted them, so which thread compressed what never shows in the file.
public final class CompressionQueue: @unchecked Sendable {
    private enum Slot {
        case waiting(FileCompression, [UInt8])
        case compressing
        case done([UInt8])
    }

    private let condition = NSCondition()
    private var slots: [Int: Slot] = [:]
    private var nextTicket = 0
    /// No ticket below this one is waiting.
    private var oldestWaiting = 0

    public init() {}

    /// Compresses the waiting blocks, oldest first, until none is left.
    public func compressWaiting() {
        while let (ticket, compression, bytes) = claimOldest() {
            let block = compression.block(bytes)
            condition.lock()
            slots[ticket] = .done(block)
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Queues `bytes` to become one block; returns its ticket.
    func submit(_ bytes: [UInt8], as compression: FileCompression) -> Int {
        condition.lock()
        defer { condition.unlock() }
        slots[nextTicket] = .waiting(compression, bytes)
        nextTicket += 1
        return nextTicket - 1
    }

    /// Whether the block of `ticket` is ready to take.
    func isDone(_ ticket: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if case .done = slots[ticket] { return true }
        return false
    }

    /// The block of `ticket`, which leaves the queue: compressed here if no thread has started
    /// it, else waited for.
    func take(_ ticket: Int) -> [UInt8] {
        condition.lock()
        while true {
            switch slots[ticket] {
            case .done(let block):
                slots[ticket] = nil
                condition.unlock()
                return block
            case .waiting(let compression, let bytes):
                slots[ticket] = nil
                condition.unlock()
                return compression.block(bytes)
            case .compressing:
                condition.wait()
            case nil:
                condition.unlock()
                preconditionFailure("block \(ticket) was never submitted or was taken twice")
            }
        }
    }

    private func claimOldest() -> (Int, FileCompression, [UInt8])? {
        condition.lock()
        defer { condition.unlock() }
        while oldestWaiting < nextTicket {
            let ticket = oldestWaiting
            oldestWaiting += 1
            if case .waiting(let compression, let bytes) = slots[ticket] {
                slots[ticket] = .compressing
                return (ticket, compression, bytes)
            }
        }
        return nil
    }
}
