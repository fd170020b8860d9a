import Foundation

extension SafetensorsFile {
    /// The bytes of a safetensors file holding `tensors` (F32 or F64, by each tensor's dtype) in
    /// the order given, and `metadata`. For exporting models and making test files; values are
    /// written as they are, so a non-finite one makes a file the reader rejects.
    public static func encode(_ tensors: [Tensor], metadata: [String: String] = [:]) -> [UInt8] {
        var entries: [String] = []
        if !metadata.isEmpty {
            let fields = metadata.keys.sorted().map { "\(quoted($0)):\(quoted(metadata[$0] ?? ""))" }
            entries.append("\"__metadata__\":{\(fields.joined(separator: ","))}")
        }
        var data: [UInt8] = []
        for tensor in tensors {
            let begin = data.count
            for value in tensor.values {
                if tensor.dtype == "F64" {
                    withUnsafeBytes(of: value.bitPattern.littleEndian) { data += $0 }
                } else {
                    withUnsafeBytes(of: Float(value).bitPattern.littleEndian) { data += $0 }
                }
            }
            let shape = tensor.shape.map(String.init).joined(separator: ",")
            entries.append("\(quoted(tensor.name)):{\"dtype\":\(quoted(tensor.dtype)),\"shape\":[\(shape)],\"data_offsets\":[\(begin),\(data.count)]}")
        }
        var header = Array(("{" + entries.joined(separator: ",") + "}").utf8)
        while header.count % 8 != 0 { header.append(UInt8(ascii: " ")) }
        var bytes: [UInt8] = []
        withUnsafeBytes(of: UInt64(header.count).littleEndian) { bytes += $0 }
        return bytes + header + data
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
