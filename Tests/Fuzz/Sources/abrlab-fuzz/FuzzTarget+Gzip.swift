import ABRLab
import ABRLabResults

extension FuzzTarget {
    /// The rows encoder behind segments.csv.gz on any bytes: zlib reads back exactly the input,
    /// and the same input always gives the same member. Matches start at separators, so inputs
    /// dense in ',' and '\n' reach its chains and long matches.
    static let rowsGzip = FuzzTarget(name: "rows-gzip", dictionary: "rows-gzip.dict") { bytes in
        let member = Gzip.member(bytes)
        FuzzCheck.expect(Gzip.decompress(member) == bytes, "the member of \(bytes.count) bytes does not read back as its input")
        FuzzCheck.expect(Gzip.member(bytes) == member, "the same \(bytes.count) bytes gave two members")
    }
}
