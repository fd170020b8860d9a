import Foundation

/// The target this process fuzzes, from `ABRLAB_FUZZ_TARGET`; set before the first input.
nonisolated(unsafe) private var selectedTarget: FuzzTarget?

/// libFuzzer calls this once before any input. `ABRLAB_FUZZ_TARGET=list` prints each target
/// and its dictionary (`scripts/fuzz` reads the list) and exits.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    let name = ProcessInfo.processInfo.environment["ABRLAB_FUZZ_TARGET"] ?? ""
    if name == "list" {
        for target in FuzzTarget.all { print(target.name, target.dictionary ?? "-") }
        exit(0)
    }
    guard let target = FuzzTarget.all.first(where: { $0.name == name }) else {
        let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("abrlab-fuzz: set ABRLAB_FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }
    selectedTarget = target
    return 0
}

/// libFuzzer's entry point: one input per call.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    selectedTarget?.run(bytes)
    return 0
}
