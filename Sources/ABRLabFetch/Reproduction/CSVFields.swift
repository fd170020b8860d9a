import Foundation

/// Splits one CSV line, with RFC 4180 quotes.
enum CSVFields {
    static func split(_ line: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var characters = line.makeIterator()
        while let character = characters.next() {
            switch (character, quoted) {
            case ("\"", false) where field.isEmpty: quoted = true
            case ("\"", true):
                quoted = false
            case (",", false):
                fields.append(field)
                field = ""
            default: field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}
