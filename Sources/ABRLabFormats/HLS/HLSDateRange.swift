import ABRLab
import Foundation

/// An `EXT-X-DATERANGE` tag (RFC 8216 §4.3.2.7) with every attribute it carried.
///
/// Values may be quoted or not (`ID="HIGH"` or `ID=HIGH`); client attributes (`X-…`) keep
/// their kind and text.
public struct HLSDateRange: Equatable, Sendable {
    public var id: String
    /// `CLASS`, e.g. `com.tidal.format`.
    public var classIdentifier: String?
    public var startDate: Date
    public var endDate: Date?
    public var durationSeconds: Double?
    public var plannedDurationSeconds: Double?
    /// `SCTE35-CMD`, `SCTE35-OUT` and `SCTE35-IN` as written (hexadecimal).
    public var scte35Command: String?
    public var scte35Out: String?
    public var scte35In: String?
    /// `END-ON-NEXT=YES`.
    public var endsOnNext: Bool
    /// The `X-` attributes in playlist order.
    public var clientAttributes: [HLSAttributeList.Attribute]
    /// All attributes as written, in order.
    public var attributes: HLSAttributeList
    /// Number of segments before the tag: the index of the segment it stands before.
    public var segmentIndex: Int
    public var line: Int

    public init(
        id: String, classIdentifier: String? = nil, startDate: Date, endDate: Date? = nil, durationSeconds: Double? = nil,
        plannedDurationSeconds: Double? = nil, scte35Command: String? = nil, scte35Out: String? = nil,
        scte35In: String? = nil, endsOnNext: Bool = false, clientAttributes: [HLSAttributeList.Attribute] = [],
        attributes: HLSAttributeList = HLSAttributeList([]), segmentIndex: Int = 0, line: Int = 0
    ) {
        self.id = id
        self.classIdentifier = classIdentifier
        self.startDate = startDate
        self.endDate = endDate
        self.durationSeconds = durationSeconds
        self.plannedDurationSeconds = plannedDurationSeconds
        self.scte35Command = scte35Command
        self.scte35Out = scte35Out
        self.scte35In = scte35In
        self.endsOnNext = endsOnNext
        self.clientAttributes = clientAttributes
        self.attributes = attributes
        self.segmentIndex = segmentIndex
        self.line = line
    }

    /// A client attribute's value by its full name, e.g. `X-COM-TIDAL-FORMAT`.
    public func clientAttribute(_ name: String) -> HLSAttributeValue? {
        clientAttributes.first { $0.name == name }?.value
    }

    /// Reads the tag's attribute list, checking the RFC's rules between attributes.
    static func parse(_ reader: HLSTagReader, segmentIndex: Int) throws(InputError) -> HLSDateRange {
        let attributes = try reader.attributes()
        let id = try reader.requiredString(attributes, "ID")
        let startDate = try reader.date(reader.requiredString(attributes, "START-DATE"), what: "EXT-X-DATERANGE START-DATE")
        let endDate = try reader.string(attributes, "END-DATE").map { (text) throws(InputError) in
            try reader.date(text, what: "EXT-X-DATERANGE END-DATE")
        }
        if let endDate, endDate < startDate { throw reader.error("EXT-X-DATERANGE END-DATE is before its START-DATE") }
        let durationSeconds = try reader.seconds(attributes, "DURATION")
        let endsOnNext: Bool
        switch attributes["END-ON-NEXT"]?.string {
        case nil: endsOnNext = false
        case "YES": endsOnNext = true
        case let other?: throw reader.error("EXT-X-DATERANGE END-ON-NEXT is \(other); its only value is YES")
        }
        if endsOnNext {
            guard attributes["CLASS"] != nil else { throw reader.error("EXT-X-DATERANGE with END-ON-NEXT needs CLASS") }
            guard durationSeconds == nil, endDate == nil else {
                throw reader.error("EXT-X-DATERANGE with END-ON-NEXT cannot have DURATION or END-DATE")
            }
        }
        return HLSDateRange(
            id: id, classIdentifier: reader.string(attributes, "CLASS"), startDate: startDate, endDate: endDate,
            durationSeconds: durationSeconds, plannedDurationSeconds: try reader.seconds(attributes, "PLANNED-DURATION"),
            scte35Command: reader.string(attributes, "SCTE35-CMD"), scte35Out: reader.string(attributes, "SCTE35-OUT"),
            scte35In: reader.string(attributes, "SCTE35-IN"), endsOnNext: endsOnNext,
            clientAttributes: attributes.attributes.filter { $0.name.hasPrefix("X-") }, attributes: attributes,
            segmentIndex: segmentIndex, line: reader.line
        )
    }
}
