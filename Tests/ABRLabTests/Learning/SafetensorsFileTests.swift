import ABRLab
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct SafetensorsFileTests {
    static let tensors = [
        SafetensorsFile.Tensor(name: "a", dtype: "F32", shape: [2, 3], values: [1, -2, 3.5, 0, 0.25, 6]),
        SafetensorsFile.Tensor(name: "b", dtype: "F64", shape: [2], values: [0.1, -1e300]),
        SafetensorsFile.Tensor(name: "scalar", dtype: "F32", shape: [], values: [7]),
    ]

    @Test func readsWhatEncodeWrites() throws {
        let file = try SafetensorsFile(bytes: SafetensorsFile.encode(Self.tensors, metadata: ["format": "pt"]), file: "x.safetensors")
        #expect(file.tensors.count == 3)
        for tensor in Self.tensors { #expect(file.tensors[tensor.name] == tensor) }
        #expect(file.metadata == ["format": "pt"])
    }

    /// The header as text, then the data after it, so cases can break either.
    static func file(header: String, data: [UInt8]) -> [UInt8] {
        let headerBytes = Array(header.utf8)
        var bytes: [UInt8] = []
        withUnsafeBytes(of: UInt64(headerBytes.count).littleEndian) { bytes += $0 }
        return bytes + headerBytes + data
    }

    static func floats(_ values: [Float]) -> [UInt8] {
        values.flatMap { value in withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }
    }

    struct BadCase: Sendable, CustomStringConvertible {
        let name: String
        let bytes: [UInt8]
        let expected: String
        var description: String { name }
    }

    static let badCases: [BadCase] = [
        BadCase(name: "empty", bytes: [], expected: "m.st: truncated: 0 bytes; a safetensors file starts with an 8-byte header length"),
        BadCase(name: "short header", bytes: Array(file(header: "{\"a\":{}}", data: []).prefix(12)), expected: "m.st: truncated: the header should be 8 bytes but only 4 follow"),
        BadCase(name: "huge header length", bytes: [0, 0, 0, 0, 0, 0, 0, 1] + Array(repeating: 0, count: 8), expected: "m.st: the header length 72057594037927936 is over the format's limit of 100000000 bytes (not a safetensors file?)"),
        BadCase(name: "not JSON", bytes: file(header: "[1]", data: []), expected: "m.st: the header is not a JSON object"),
        BadCase(name: "broken JSON", bytes: file(header: "{\"a\":", data: []), expected: "m.st:1: unexpected end of file; expected a JSON value"),
        BadCase(
            name: "tensor past the data",
            bytes: file(header: "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", data: floats([1])),
            expected: "m.st: truncated: tensor a ends at data byte 8 but the data holds 4 bytes"
        ),
        BadCase(
            name: "bytes after the last tensor",
            bytes: file(header: "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", data: floats([1, 2])),
            expected: "m.st: oversized: 4 bytes after the last tensor belong to no tensor"
        ),
        BadCase(
            name: "overlap",
            bytes: file(header: "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}", data: floats([1, 2])),
            expected: "m.st: inconsistent: tensors a and b overlap"
        ),
        BadCase(
            name: "gap",
            bytes: file(header: "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}", data: floats([1, 2])),
            expected: "m.st: inconsistent: 4 bytes before tensor a belong to no tensor"
        ),
        BadCase(
            name: "shape and offsets disagree",
            bytes: file(header: "{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}", data: floats([1, 2])),
            expected: "m.st: inconsistent: tensor a of shape [3] and dtype F32 needs 12 bytes but its offsets span 8"
        ),
        BadCase(
            name: "unsupported dtype",
            bytes: file(header: "{\"a\":{\"dtype\":\"BF16\",\"shape\":[1],\"data_offsets\":[0,2]}}", data: [0, 0]),
            expected: "m.st: tensor a has dtype BF16; abrlab reads F32 and F64 tensors"
        ),
        BadCase(
            name: "offsets reversed",
            bytes: file(header: "{\"a\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[4,0]}}", data: floats([1])),
            expected: "m.st: tensor a: data_offsets must be [begin, end] with begin ≤ end"
        ),
        BadCase(
            name: "fractional shape",
            bytes: file(header: "{\"a\":{\"dtype\":\"F32\",\"shape\":[1.5],\"data_offsets\":[0,4]}}", data: floats([1])),
            expected: "m.st: tensor a: shape holds 1.5; expected whole numbers"
        ),
        BadCase(
            name: "unknown field",
            bytes: file(header: "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4],\"x\":1}}", data: floats([1])),
            expected: "m.st: tensor a has an unknown field 'x'"
        ),
        BadCase(
            name: "duplicate tensor",
            bytes: file(header: "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}", data: floats([1, 2])),
            expected: "m.st:1: duplicate key \"a\""
        ),
        BadCase(
            name: "NaN weight",
            bytes: file(header: "{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", data: floats([1, .nan])),
            expected: "m.st: tensor w holds NaN at index 1; weights must be finite"
        ),
        BadCase(
            name: "infinite weight",
            bytes: file(header: "{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", data: floats([-.infinity])),
            expected: "m.st: tensor w holds -inf at index 0; weights must be finite"
        ),
    ]

    @Test(arguments: badCases)
    func badFilesAreOneErrorNamingTheFile(_ bad: BadCase) {
        do {
            _ = try SafetensorsFile(bytes: bad.bytes, file: "m.st")
            Issue.record("no error")
        } catch {
            #expect(error.description == bad.expected)
        }
    }

    @Test func missingFilesAndFoldersAreReported() {
        #expect(throws: InputError(file: "/nonexistent/m.safetensors", "no such file")) {
            try SafetensorsFile.load(path: "/nonexistent/m.safetensors")
        }
        #expect(throws: InputError(file: "/tmp", "is a folder, not a safetensors file")) {
            try SafetensorsFile.load(path: "/tmp")
        }
    }

    /// A 300 MiB model, or a small link to one, is refused by the target's size before a byte
    /// of it is read; a device is never read.
    @Test func modelsAreCappedByTheSizeOfWhatALinkLeadsTo() throws {
        let fixtures = try FixtureDirectory()
        let huge = fixtures.url.appendingPathComponent("huge.safetensors")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 300 << 20)
        try handle.close()
        let link = fixtures.url.appendingPathComponent("link.safetensors")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: huge.path)
        for path in [huge.path, link.path] {
            #expect(throws: InputError(file: path, "model files are limited to 64 MiB; this file is 300 MiB")) {
                try SafetensorsFile.load(path: path)
            }
        }
        let device = fixtures.url.appendingPathComponent("zero.safetensors")
        try FileManager.default.createSymbolicLink(atPath: device.path, withDestinationPath: "/dev/zero")
        #expect(throws: InputError(file: device.path, "is not a regular file (a pipe or a device?), not a safetensors file")) {
            try SafetensorsFile.load(path: device.path)
        }
    }
}
