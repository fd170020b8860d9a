// A session's ladder as the dash.js strategies present it to dash.js: one representation per level, id `v` and the
// level, bandwidth in bit/s. dash.js sorts by bandwidth, so a level's absoluteIndex is its rank (AbrController.js:
// 459-515), and the level is read back from the id.

extension DashJSLadder {
    /// The ladder of `levelsKbps` (lowest first), representation `v<level>` for each level.
    init(levelsKbps: [Double]) {
        self.init(levelsKbps.enumerated().map { DashJSRepresentation(id: "v\($0.offset)", bandwidthBps: $0.element * 1000) })
    }

    /// The representation id of a 0-based level.
    static func id(ofLevel level: Int) -> String { "v\(level)" }

    /// The 0-based level a representation id of such a ladder stands for.
    static func level(ofId id: String) -> Int { Int(id.dropFirst())! }

    /// The 0-based level a representation of such a ladder stands for.
    static func level(of representation: DashJSRepresentation) -> Int { level(ofId: representation.id) }
}
