import ABRLab

/// How a compressed data file is written: a sequence of independent blocks, each one complete
/// gzip member or Zstandard frame, which readers take as one file. A block's bytes depend only
/// on its rows, so whichever thread compresses it, the file is the same.
public enum FileCompression: Sendable, CaseIterable {
    case gzip
    case zstd

    /// Plain rows a block holds before it ends at the next line end (`abrlab-bench --only output`
    /// measures the choice, docs/output.md has the figures). gzip's are 64 KiB: deflate looks
    /// back only 32 KiB anyway, and the rows encoder writes 70.8 bytes a row in them against 72.4
    /// in 16 KiB blocks, a little faster, while 1 MiB saves under half a byte more. Zstandard's
    /// are large, so the sessions of a trace, which repeat one another's numbers, share a block
    /// and its matches reach them: 51 bytes a row against 70 in 16 KiB blocks. Either bounds
    /// memory whatever a batch holds.
    public var blockBytes: Int {
        switch self {
        case .gzip: 64 << 10
        case .zstd: 1 << 20
        }
    }

    /// Where the block being filled ends in `rows` (whole lines) when it already holds `filled`
    /// bytes: the index of the first line end at or past ``blockBytes``; `nil` when the block
    /// takes all of `rows`.
    public func blockEnd(in rows: ArraySlice<UInt8>, filled: Int) -> Int? {
        Self.blockEnd(in: rows, filled: filled, blockBytes: blockBytes)
    }

    /// ``blockEnd(in:filled:)`` for blocks of `blockBytes`, to measure other sizes (`abrlab-bench`).
    public static func blockEnd(in rows: ArraySlice<UInt8>, filled: Int, blockBytes: Int) -> Int? {
        guard filled + rows.count >= blockBytes else { return nil }
        return rows[(rows.startIndex + max(0, blockBytes - filled - 1))...].firstIndex(of: UInt8(ascii: "\n"))
    }

    /// The compression of a file with this name, `nil` for a plain one.
    public init?(fileName: String) {
        if fileName.hasSuffix(".gz") {
            self = .gzip
        } else if fileName.hasSuffix(".zst") {
            self = .zstd
        } else {
            return nil
        }
    }

    /// One block: a complete gzip member or Zstandard frame holding `bytes`.
    public func block(_ bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .gzip: Gzip.member(bytes)
        case .zstd: Zstd.frame(bytes)
        }
    }

    /// The content of a whole file of blocks; `nil` when it is not valid.
    public func decompress(_ bytes: [UInt8]) -> [UInt8]? {
        switch self {
        case .gzip: Gzip.decompress(bytes)
        case .zstd: Zstd.decompress(bytes)
        }
    }

    /// What decides the bytes of a block besides its rows (library, version, level, block size),
    /// for a run's fingerprint: shards compressed differently cannot merge byte for byte.
    public var identity: String {
        switch self {
        case .gzip: Gzip.identity + " block \(blockBytes)"
        case .zstd: Zstd.identity + " block \(blockBytes)"
        }
    }
}
