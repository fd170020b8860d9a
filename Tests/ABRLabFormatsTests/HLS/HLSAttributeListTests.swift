import ABRLab
import ABRLabFormats
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct HLSAttributeListTests {
    @Test func classifiesEveryValueKind() throws {
        let list = try HLSAttributeList(parsing:
            #"BANDWIDTH=1280000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=1920x1080,FRAME-RATE=29.970,"#
                + #"HDCP-LEVEL=TYPE-0,IV=0x1A2b,TIME-OFFSET=-2.5,NAME="",ID=007"#
        )
        #expect(list.names == ["BANDWIDTH", "CODECS", "RESOLUTION", "FRAME-RATE", "HDCP-LEVEL", "IV", "TIME-OFFSET", "NAME", "ID"])
        #expect(list["BANDWIDTH"] == HLSAttributeValue(kind: .decimalInteger, text: "1280000"))
        #expect(list["BANDWIDTH"]?.integer == 1_280_000)
        #expect(list["CODECS"] == .quoted("avc1.4d401f,mp4a.40.2"))
        #expect(list["RESOLUTION"]?.resolution == HLSResolution(widthPixels: 1920, heightPixels: 1080))
        #expect(list["FRAME-RATE"]?.kind == .decimalFloat)
        #expect(list["FRAME-RATE"]?.number == 29.97)
        #expect(list["HDCP-LEVEL"] == HLSAttributeValue(kind: .enumeratedString, text: "TYPE-0"))
        #expect(list["IV"] == HLSAttributeValue(kind: .hexadecimal, text: "0x1A2b"))
        #expect(list["TIME-OFFSET"]?.number == -2.5)
        #expect(list["NAME"] == .quoted(""))
        #expect(list["ID"]?.string == "007")
        #expect(list["MISSING"] == nil)
    }

    @Test func quotedStringsKeepCommasAndEqualsSigns() throws {
        let list = try HLSAttributeList(parsing: #"X-NOTE="a=1, b=2",URI="seg,1.ts""#)
        #expect(list["X-NOTE"]?.string == "a=1, b=2")
        #expect(list["URI"]?.string == "seg,1.ts")
        #expect(list.formatted == #"X-NOTE="a=1, b=2",URI="seg,1.ts""#)
    }

    @Test func skipsBlanksAfterCommas() throws {
        let list = try HLSAttributeList(parsing: "BANDWIDTH=1, CODECS=\"mp4a.40.2\",\tX-Y=2")
        #expect(list.names == ["BANDWIDTH", "CODECS", "X-Y"])
    }

    @Test(arguments: [
        ("", "the attribute list is empty"),
        ("BANDWIDTH", "'BANDWIDTH' is not NAME=VALUE"),
        ("A=1,,B=2", "'' is not NAME=VALUE"),
        ("bandwidth=1", "'bandwidth' is not an attribute name (A–Z, 0–9 and -)"),
        ("A=1,A=2", "attribute A appears twice"),
        (#"A="open"#, "attribute A has a quoted string without its closing quote"),
        (#"A="x"y,B=1"#, "attribute A is followed by 'y,B=1' instead of a comma"),
        ("A=1,", "the attribute list ends with a comma"),
        ("A=,B=1", "attribute A has an empty value"),
        ("A=x y", "attribute A has an unquoted value 'x y' with a quote or blank in it"),
        ("A=99999999999999999999", "attribute A is 99999999999999999999, too large for a whole number"),
    ])
    func rejectsMalformedLists(text: String, message: String) {
        #expect(throws: HLSAttributeError(message)) { try HLSAttributeList(parsing: text) }
    }

    @Test func decimalFloatsNeedDigitsAndOnePoint() throws {
        let list = try HLSAttributeList(parsing: "A=-2.5,B=3.,C=-4,D=-,E=1.2.3,F=1e5,G=.5")
        #expect(list.attributes.map(\.value.kind) == [
            .decimalFloat, .decimalFloat, .decimalFloat, .enumeratedString, .enumeratedString, .enumeratedString, .decimalFloat,
        ])
        #expect(list["G"]?.number == 0.5)
        #expect(list["F"]?.number == nil)
    }
}
