import ABRLab
import ABRLabCompare
import ArgumentParser
import Foundation

/// What the command line needs before and after ArgumentParser reads it.
enum CommandLineArguments {
    /// `--seed -1` as `--seed=-1`: ArgumentParser takes a value that starts with a dash for an
    /// option and answers "Missing value", so a negative number never reached the range checks
    /// that say what the option takes. Only a number right after a long option is joined to it.
    static func joiningNegativeNumbers(_ arguments: [String]) -> [String] {
        var result: [String] = []
        result.reserveCapacity(arguments.count)
        var ended = false
        for argument in arguments {
            if !ended, argument.hasPrefix("-"), !argument.hasPrefix("--"), Double(argument) != nil,
               let previous = result.last, previous.hasPrefix("--"), previous != "--", !previous.contains("=") {
                result[result.count - 1] = previous + "=" + argument
                continue
            }
            if argument == "--" { ended = true }
            result.append(argument)
        }
        return result
    }

    /// The process's arguments as bytes, when one of them is not UTF-8: Swift's `CommandLine`
    /// replaces such bytes with U+FFFD, so a `--param` text would reach a script altered and two
    /// different values would look alike. The message names the parameter (`--param x.label`), the
    /// option, or the argument's place, with the bytes escaped.
    static func invalidUTF8Message() -> String? {
        let raw = (0..<Int(CommandLine.argc)).dropFirst().map { index -> [UInt8] in
            guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
        }
        guard let bad = raw.firstIndex(where: { String(validating: $0, as: UTF8.self) == nil }) else { return nil }
        // The option the bad bytes are the value of: `--opt VALUE` or `--opt=VALUE`.
        var option: [UInt8]?
        var value = raw[bad]
        if raw[bad].starts(with: Array("--".utf8)), let equals = raw[bad].firstIndex(of: UInt8(ascii: "=")) {
            option = Array(raw[bad][..<equals])
            value = Array(raw[bad][(equals + 1)...])
        } else if bad > 0, raw[bad - 1].starts(with: Array("--".utf8)) {
            option = raw[bad - 1]
        }
        let text = FileNameText(value).text
        guard let option else { return "argument \(bad + 1) '\(text)' is not UTF-8 text; abrlab reads its arguments as UTF-8" }
        guard option == Array("--param".utf8) else {
            return "\(FileNameText(option).text): '\(text)' is not UTF-8 text; abrlab reads its arguments as UTF-8"
        }
        let name = value.firstIndex(of: UInt8(ascii: "=")).map { FileNameText(value[..<$0]).text } ?? text
        return "--param \(name): '\(text)' is not UTF-8 text; a parameter reaches its script unchanged, so give its value as UTF-8"
    }

    /// Refuses an option that keeps one value given more than once: ArgumentParser keeps the last
    /// value and drops the others without a word (`--segments 20 --segments 30` played the
    /// whole video). Options that collect values (`--param`, `--traces`) and flags may repeat.
    static func refuseRepeatedOptions(_ arguments: [String], command: ParsableCommand.Type) throws(InputError) {
        var seen = Set<String>()
        var repeated: [String] = []
        for argument in arguments {
            if argument == "--" { break }
            guard argument.hasPrefix("--") else { continue }
            let name = String(argument.dropFirst(2).prefix { $0 != "=" })
            if !seen.insert(name).inserted, !repeated.contains(name) { repeated.append(name) }
        }
        guard !repeated.isEmpty else { return }
        // ArgumentParser's own description of the command says which options keep one value.
        let single = singleValueOptions(of: command)
        if let name = repeated.first(where: single.contains) {
            throw InputError(file: "--" + name, "is given more than once; it keeps one value, so give it once")
        }
    }

    /// The long names of the command's options that keep one value.
    private static func singleValueOptions(of command: ParsableCommand.Type) -> Set<String> {
        guard let json = try? JSONSerialization.jsonObject(with: Data(command._dumpHelp().utf8)) as? [String: Any],
              let description = json["command"] as? [String: Any],
              let arguments = description["arguments"] as? [[String: Any]] else { return [] }
        var names = Set<String>()
        for argument in arguments where argument["kind"] as? String == "option" && argument["isRepeating"] as? Bool == false {
            for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
                if let text = name["name"] as? String { names.insert(text) }
            }
        }
        return names
    }
}
