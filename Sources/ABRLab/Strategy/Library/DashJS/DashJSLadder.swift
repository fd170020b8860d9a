// dash.js 5.1.1's ladder as its ABR rules see it: AbrController._getPossibleVoRepresentations and
// _sortRepresentationsByQuality (streaming/controllers/AbrController.js:279-316, 459-515),
// getOptimalRepresentationForBitrate (:224-252), pixelsPerSecond (dash/models/DashManifestModel.js:963-969).
// Spec: ../shared/specs/dashjs.md section A.1.

/// One representation of the adaptation set, in dash.js's units (bandwidth in bit/s).
public struct DashJSRepresentation: Sendable, Equatable {
    public let id: String
    public let bandwidthBps: Double
    public let width: Double?
    public let height: Double?
    public let frameRate: Double?
    public let qualityRanking: Double?
    public let fragmentDurationSeconds: Double?
    /// Position in dash.js's sorted order; every rule output is one.
    public internal(set) var absoluteIndex: Int = 0

    public init(id: String, bandwidthBps: Double, width: Double? = nil, height: Double? = nil, frameRate: Double? = nil,
                qualityRanking: Double? = nil, fragmentDurationSeconds: Double? = nil) {
        self.id = id
        self.bandwidthBps = bandwidthBps
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.qualityRanking = qualityRanking
        self.fragmentDurationSeconds = fragmentDurationSeconds
    }

    /// `bitrateInKbit = bandwidth/1000` (DashManifestModel.js:837).
    public var bitrateKbps: Double { bandwidthBps / 1000 }

    /// `max(1, width·height·frameRate)` only when all three are known.
    var pixelsPerSecond: Double? {
        guard let width, let height, let frameRate else { return nil }
        return max(1, width * height * frameRate)
    }
}

/// The sorted ladder (no settings filters: min/max bitrate and portal limits are off by default).
public struct DashJSLadder: Sendable {
    public let representations: [DashJSRepresentation]

    public init(_ unsorted: [DashJSRepresentation]) {
        var sorted: [DashJSRepresentation]
        if unsorted.allSatisfy({ $0.qualityRanking != nil }) {
            // Descending qualityRanking; Array.sort is not stable but JS's is, so ties keep input order explicitly.
            sorted = unsorted.enumerated().sorted { a, b in
                let d = b.element.qualityRanking! - a.element.qualityRanking!
                return d != 0 ? d < 0 : a.offset < b.offset
            }.map(\.element)
        } else {
            sorted = unsorted.enumerated().sorted { a, b in
                let d = Self.defaultOrder(a.element, b.element)
                return d != 0 ? d < 0 : a.offset < b.offset
            }.map(\.element)
        }
        for index in sorted.indices { sorted[index].absoluteIndex = index }
        representations = sorted
    }

    /// _sortByDefaultParameters for one media info: resolution first when both are known and differ.
    private static func defaultOrder(_ a: DashJSRepresentation, _ b: DashJSRepresentation) -> Double {
        if let pa = a.pixelsPerSecond, let pb = b.pixelsPerSecond, pa != pb { return pa - pb }
        return a.bandwidthBps - b.bandwidthBps
    }

    public var count: Int { representations.count }
    public subscript(index: Int) -> DashJSRepresentation { representations[index] }
    public var top: DashJSRepresentation { representations[representations.count - 1] }

    public func representation(id: String) -> DashJSRepresentation? {
        for index in representations.indices where representations[index].id == id { return representations[index] }
        return nil
    }

    /// The lowest bandwidth; a tie keeps the later one (`a.bandwidth < b.bandwidth ? a : b`). Both searches keep a
    /// position rather than a representation, which Swift would copy at every step.
    public var smallest: DashJSRepresentation {
        var kept = 0
        for index in representations.indices.dropFirst() where !(representations[kept].bandwidthBps < representations[index].bandwidthBps) {
            kept = index
        }
        return representations[kept]
    }

    /// getOptimalRepresentationForBitrate: the highest index whose kbit/s fits; NaN or ≤ 0 gives the smallest.
    public func optimal(forKbps kbps: Double) -> DashJSRepresentation {
        if kbps <= 0 { return smallest }
        var best: Int?
        for index in representations.indices where representations[index].bitrateKbps <= kbps {
            if best == nil || representations[index].absoluteIndex > representations[best!].absoluteIndex { best = index }
        }
        return best.map { representations[$0] } ?? smallest
    }
}
