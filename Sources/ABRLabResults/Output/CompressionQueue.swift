import ABRLab
import Foundation

/// Blocks of compressed files on their way to the disk, compressed on whichever thread gets to
/// them first: the run's workers between sessions (``compressWaiting()``), or the writer when it
/// needs a block no worker has started. The writer takes each block back in the order it
/// submitted them, so which thread compressed what never shows in the file.
public final class CompressionQueue: Sendable {
    private enum Slot {
        case waiting(FileCompression, [UInt8])
        case compressing
        case done([UInt8])
    }

    private struct State {
        var slots: [Int: Slot] = [:]
        var nextTicket = 0
        /// No ticket below this one is waiting.
        var oldestWaiting = 0
    }

    private let state = Monitor(State())

    public init() {}

    /// Compresses the waiting blocks, oldest first, until none is left.
    public func compressWaiting() {
        while let (ticket, compression, bytes) = claimOldest() {
            let block = compression.block(bytes)
            state.withLock { $0.slots[ticket] = .done(block) }
        }
    }

    /// Queues `bytes` to become one block; returns its ticket.
    func submit(_ bytes: [UInt8], as compression: FileCompression) -> Int {
        state.withLock { state in
            state.slots[state.nextTicket] = .waiting(compression, bytes)
            state.nextTicket += 1
            return state.nextTicket - 1
        }
    }

    /// Whether the block of `ticket` is ready to take.
    func isDone(_ ticket: Int) -> Bool {
        state.withLock { state in
            if case .done = state.slots[ticket] { return true }
            return false
        }
    }

    /// What `take` finds: a block, or bytes no thread has started.
    private enum Taken {
        case block([UInt8])
        case bytes(FileCompression, [UInt8])
    }

    /// The block of `ticket`, which leaves the queue: compressed here if no thread has started
    /// it, else waited for.
    func take(_ ticket: Int) -> [UInt8] {
        let taken = state.wait { state -> Taken? in
            switch state.slots[ticket] {
            case .done(let block):
                state.slots[ticket] = nil
                return .block(block)
            case .waiting(let compression, let bytes):
                state.slots[ticket] = nil
                return .bytes(compression, bytes)
            case .compressing:
                return nil
            case nil:
                preconditionFailure("block \(ticket) was never submitted or was taken twice")
            }
        }
        switch taken {
        case .block(let block): return block
        case .bytes(let compression, let bytes): return compression.block(bytes)
        }
    }

    private func claimOldest() -> (Int, FileCompression, [UInt8])? {
        state.withLock { state in
            while state.oldestWaiting < state.nextTicket {
                let ticket = state.oldestWaiting
                state.oldestWaiting += 1
                if case .waiting(let compression, let bytes) = state.slots[ticket] {
                    state.slots[ticket] = .compressing
                    return (ticket, compression, bytes)
                }
            }
            return nil
        }
    }
}
