import ABRLab
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

    /// Refuses an option that keeps one value given more than once: ArgumentParser keeps the last
    /// value and drops the others without a word (`--segments 20 --segments csv.gz` played the
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
