import Foundation

/// A safetensors file: an 8-byte little-endian header length, a JSON header mapping tensor names
/// to dtype, shape and byte offsets, then the raw little-endian data.
///
/// Format: huggingface/safetensors (README, "Format"). Reading is strict, so a damaged model
/// never reaches a network: every offset is bounds-checked, the tensors must tile the data
/// exactly (no gap, no overlap, nothing after the last one), each tensor's byte count must match
/// its shape, and every value must be finite. Only F32 and F64 tensors are read (as `Double`).
public struct SafetensorsFile: Sendable {
    /// One tensor, values in row-major order.
    public struct Tensor: Sendable, Equatable {
        public let name: String
        public let dtype: String
        public let shape: [Int]
        public let values: [Double]

        public init(name: String, dtype: String, shape: [Int], values: [Double]) {
            self.name = name
            self.dtype = dtype
            self.shape = shape
            self.values = values
        }
    }

    /// The file as messages name it.
    public let file: String
    /// Tensors by name.
    public let tensors: [String: Tensor]
    /// The header's optional `__metadata__` strings.
    public let metadata: [String: String]

    /// Files larger than this (by the size of the file a link leads to) are refused before they
    /// are read: 64 MiB, over 100 times Pensieve's actor (448 KB), like every other input.
    public static let maxFileBytes = InputFile.maximumBytes
    /// The format's own cap on the header.
    public static let maxHeaderBytes = 100_000_000

    /// Reads and checks the file at `path`.
    public static func load(path: String) throws(InputError) -> SafetensorsFile {
        try SafetensorsFile(bytes: bytes(atPath: path, named: path), file: path)
    }

    /// The bytes of the model file at `path` (`file` names it in messages), at most
    /// ``maxFileBytes`` of them: a larger file, or a link to one, is refused unread.
    public static func bytes(atPath path: String, named file: String) throws(InputError) -> [UInt8] {
        switch InputFile.regularFile(atPath: path, limit: maxFileBytes) {
        case .success(let bytes): return bytes
        case .failure(.missing): throw InputError(file: file, "no such file")
        case .failure(.folder): throw InputError(file: file, "is a folder, not a safetensors file")
        case .failure(.notRegularFile): throw InputError(file: file, "is not a regular file (a pipe or a device?), not a safetensors file")
        case .failure(.tooLarge(let size)):
            let found = size.map { "is \(InputFile.sizeText($0))" } ?? "holds more than that"
            throw InputError(file: file, "model files are limited to \(InputFile.sizeText(Int64(maxFileBytes))); this file \(found)")
        case .failure(.unreadable(let reason)): throw InputError(file: file, "cannot read the file (\(reason))")
        }
    }

    /// Parses a whole file held in memory; `file` names it in errors.
    public init(bytes: [UInt8], file: String) throws(InputError) {
        self.file = file
        guard bytes.count >= 8 else {
            throw InputError(file: file, "truncated: \(bytes.count) bytes; a safetensors file starts with an 8-byte header length")
        }
        let headerLength = bytes[0..<8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard headerLength <= UInt64(Self.maxHeaderBytes) else {
            throw InputError(file: file, "the header length \(headerLength) is over the format's limit of \(Self.maxHeaderBytes) bytes (not a safetensors file?)")
        }
        let dataStart = 8 + Int(headerLength)
        guard dataStart <= bytes.count else {
            throw InputError(file: file, "truncated: the header should be \(headerLength) bytes but only \(bytes.count - 8) follow")
        }
        let headerBytes = bytes[8..<dataStart]
        guard headerBytes.first == UInt8(ascii: "{") else { throw InputError(file: file, "the header is not a JSON object") }
        guard let headerText = String(validating: headerBytes, as: UTF8.self) else {
            throw InputError(file: file, "the header is not valid UTF-8")
        }
        let header = try LocatedJSON.parse(headerText, file: file)
        var entries: [Entry] = []
        var metadata: [String: String] = [:]
        for (key, value) in try header.members(file: file, what: "the header") {
            if key == "__metadata__" {
                for (name, text) in try value.members(file: file, what: "__metadata__") {
                    guard case .string(let string) = text.value else {
                        throw InputError(file: file, "__metadata__.\(name) must be a string, not \(text.kindDescription)")
                    }
                    metadata[name] = string
                }
            } else {
                entries.append(try Entry(name: key, json: value, file: file))
            }
        }
        let dataCount = bytes.count - dataStart
        try Self.checkTiling(entries, dataCount: dataCount, file: file)
        var tensors: [String: Tensor] = [:]
        for entry in entries {
            tensors[entry.name] = try entry.tensor(bytes: bytes, dataStart: dataStart, file: file)
        }
        self.tensors = tensors
        self.metadata = metadata
    }

    /// The tensors must cover the data from byte 0 to its end, each after the one before.
    private static func checkTiling(_ entries: [Entry], dataCount: Int, file: String) throws(InputError) {
        var position = 0
        var previous: String?
        for entry in entries.sorted(by: { ($0.begin, $0.end, $0.name) < ($1.begin, $1.end, $1.name) }) {
            if entry.end > dataCount {
                throw InputError(file: file, "truncated: tensor \(entry.name) ends at data byte \(entry.end) but the data holds \(dataCount) bytes")
            }
            if entry.begin < position, let previous {
                throw InputError(file: file, "inconsistent: tensors \(previous) and \(entry.name) overlap")
            }
            if entry.begin > position {
                throw InputError(file: file, "inconsistent: \(entry.begin - position) bytes before tensor \(entry.name) belong to no tensor")
            }
            position = entry.end
            previous = entry.name
        }
        if position < dataCount {
            throw InputError(file: file, "oversized: \(dataCount - position) bytes after the last tensor belong to no tensor")
        }
    }

    /// A tensor's header entry, checked against itself.
    private struct Entry {
        let name: String
        let dtype: String
        let width: Int
        let shape: [Int]
        let begin: Int
        let end: Int

        static let widths = ["F32": 4, "F64": 8]

        init(name: String, json: LocatedJSON, file: String) throws(InputError) {
            let what = "tensor \(name)"
            var dtype: String?
            var shape: [Int]?
            var offsets: [Int]?
            for (key, value) in try json.members(file: file, what: what) {
                switch key {
                case "dtype":
                    guard case .string(let text) = value.value else {
                        throw InputError(file: file, "\(what): dtype must be a string, not \(value.kindDescription)")
                    }
                    dtype = text
                case "shape": shape = try Self.integers(value, file: file, what: "\(what): shape")
                case "data_offsets": offsets = try Self.integers(value, file: file, what: "\(what): data_offsets")
                default: throw InputError(file: file, "\(what) has an unknown field '\(key)'")
                }
            }
            guard let dtype, let shape, let offsets else {
                throw InputError(file: file, "\(what) needs dtype, shape and data_offsets")
            }
            guard let width = Self.widths[dtype] else {
                throw InputError(file: file, "\(what) has dtype \(dtype); abrlab reads F32 and F64 tensors")
            }
            guard offsets.count == 2, offsets[0] <= offsets[1] else {
                throw InputError(file: file, "\(what): data_offsets must be [begin, end] with begin ≤ end")
            }
            var count = 1
            for dimension in shape {
                let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
                guard !overflow, product <= SafetensorsFile.maxFileBytes else {
                    throw InputError(file: file, "\(what): shape \(shape) is too large")
                }
                count = product
            }
            guard count * width == offsets[1] - offsets[0] else {
                throw InputError(
                    file: file,
                    "inconsistent: tensor \(name) of shape \(shape) and dtype \(dtype) needs \(count * width) bytes but its offsets span \(offsets[1] - offsets[0])"
                )
            }
            self.name = name
            self.dtype = dtype
            self.width = width
            self.shape = shape
            self.begin = offsets[0]
            self.end = offsets[1]
        }

        /// Whole numbers ≥ 0 that fit the file-size limit.
        static func integers(_ json: LocatedJSON, file: String, what: String) throws(InputError) -> [Int] {
            try json.elements(file: file, what: what).map { element throws(InputError) in
                let value = try element.nonNegative(file: file, what: what)
                guard value == value.rounded(), value <= Double(Int32.max) * 256 else {
                    throw InputError(file: file, "\(what) holds \(NumberText.plain(value)); expected whole numbers")
                }
                return Int(value)
            }
        }

        func tensor(bytes: [UInt8], dataStart: Int, file: String) throws(InputError) -> Tensor {
            let count = (end - begin) / width
            var values = [Double](repeating: 0, count: count)
            bytes.withUnsafeBytes { raw in
                let base = dataStart + begin
                for index in 0..<count {
                    let offset = base + index * width
                    if width == 4 {
                        values[index] = Double(Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))))
                    } else {
                        values[index] = Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                    }
                }
            }
            if let bad = values.firstIndex(where: { !$0.isFinite }) {
                throw InputError(file: file, "tensor \(name) holds \(NumberText.readable(values[bad])) at index \(bad); weights must be finite")
            }
            return Tensor(name: name, dtype: dtype, shape: shape, values: values)
        }
    }
}
